import { JSON_API_MEDIA_TYPE, decode, type DataDocument, type Relationship, type Resource } from '../jsonapi';
import * as v from 'valibot';
import { CONTACT_FIELD_SCREENER_TYPE, ContactFieldScreener } from '../model/contactFieldScreener';
import { SCREENER_TYPE, type Screener, type ScreenerInput, type ScreenerLanguage } from '../model/screener';
import { SCREENER_SURVEY_TYPE, type ScreenerFlow, type ScreenerSurvey } from '../model/screenerSurvey';
import { parseAnswer, type ApiClient } from './client';
import { listApi } from './resourceApi';

/** The languages and engagements relationships of a screener write. */
export interface ScreenerLinks {
  languageIds?: string[];
  engagementIds?: string[];
}

function relationships(links: ScreenerLinks): Record<string, Relationship> | undefined {
  const out: Record<string, Relationship> = {};
  if (links.languageIds) out.languages = { data: links.languageIds.map((id) => ({ type: 'languages', id })) };
  if (links.engagementIds) out.engagements = { data: links.engagementIds.map((id) => ({ type: 'engagements', id })) };
  return Object.keys(out).length ? out : undefined;
}

export function screenersApi(client: ApiClient) {
  const path = (id: string) => `screeners/${encodeURIComponent(id)}`;
  return {
    ...listApi<Screener>(client, 'screeners'),
    get: (id: string) => client.get<Screener>(path(id)),
    create: (values: ScreenerInput, links: ScreenerLinks = {}) => client.create<Screener>('screeners', SCREENER_TYPE, { ...values }, relationships(links)),
    update: (id: string, values: Partial<ScreenerInput>, links: ScreenerLinks = {}) =>
      client.update<Screener>(path(id), SCREENER_TYPE, id, { ...values }, relationships(links)),
    remove: (id: string) => client.remove(path(id)),
    clone: (id: string, title?: string) => client.create<Screener>(`${path(id)}/clone`, SCREENER_TYPE, title ? { title } : {}),
    removeClone: (id: string) => client.remove(`screeners/clone/${encodeURIComponent(id)}`),
    languages: (screenerId: string) => client.list<ScreenerLanguage>('screeners/languages-screeners', { screenerId }),
    /** Replaces the engagements the screener serves. */
    setEngagements: (screenerId: string, engagementIds: string[]) =>
      client.call((h) =>
        h
          .post(`engagements-screeners/update/${encodeURIComponent(screenerId)}`, {
            headers: { 'Content-Type': JSON_API_MEDIA_TYPE },
            body: JSON.stringify({ data: { type: 'engagements-screeners', attributes: { engagementIds: engagementIds.map(Number) } } }),
          })
          .json(),
      ),
    contactFields: (screenerId: string) => client.list<ContactFieldScreener>('contact-fields-screeners', { limit: 100, sort: 'weight', screenerId }),
    /** Replaces the screener's contact fields; weights follow the order given. */
    async setContactFields(screenerId: string, contactFieldIds: (string | number)[]): Promise<ContactFieldScreener[]> {
      const doc = await client.call((h) =>
        h
          .post(`contact-fields-screeners/update/${encodeURIComponent(screenerId)}`, {
            headers: { 'Content-Type': JSON_API_MEDIA_TYPE },
            body: JSON.stringify({
              data: {
                type: CONTACT_FIELD_SCREENER_TYPE,
                attributes: { contactFieldScreeners: contactFieldIds.map((id, weight) => ({ contactFieldId: Number(id), weight })) },
              },
            }),
          })
          .json<DataDocument<Resource[]>>(),
      );
      return parseAnswer(v.array(ContactFieldScreener), decode(doc), "setting the screener's contact fields");
    },
    surveys: (screenerId: string) => client.list<ScreenerSurvey>('screener-surveys', { screenerId, limit: 100 }),
    addSurvey: (screenerId: string, oFormIdentity: string) =>
      client.create<ScreenerSurvey>('screener-surveys', SCREENER_SURVEY_TYPE, { screenerId: Number(screenerId), oFormIdentity, cloneSurvey: false }),
    removeSurvey: (id: string) => client.remove(`screener-surveys/${encodeURIComponent(id)}`),
    toggleSurvey: (id: string) =>
      client.update<ScreenerSurvey>(`screeners/surveys/${encodeURIComponent(id)}`, SCREENER_SURVEY_TYPE, id, { toggle_active: true }),
    flow: (screenerId: string) => client.get<ScreenerFlow>(`screener-surveys/flow/${encodeURIComponent(screenerId)}`),
  };
}

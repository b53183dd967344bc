import { LEAD_PREVIEW_TYPE, LEAD_TYPE, LeadRevealedDocument, type Lead, type LeadKind, type LeadPreviewInput, type LeadValues } from '../model/lead';
import type { ListParams } from '../jsonapi';
import type { FieldErrors, OutcomeMessages, RunnerContactField } from '../survey/runner';
import { fieldErrors } from '../participant/call';
import { LeadFieldsDocument, LeadPreviewedDocument } from '../participant/responses';
import { ApiError, parseAnswer, type ApiClient } from './client';

/** The preview of a lead's form: the outcome, the screener, the survey version previewed, the language. */
export type LeadPreviewRequest = Pick<LeadPreviewInput, 'kind' | 'screenerId' | 'oFormId' | 'language'>;

/** Leads (contacts kept at notQualified, noTrialSites, notActive): the list, its CSV, a reveal, erasure, and the admin preview's form. */
export const leadsApi = (client: ApiClient) => ({
  list: (params: ListParams = {}) => client.list<Lead>(LEAD_TYPE, params),
  /** The whole list for these filters, sort and fields as a CSV file (no contact value in it). */
  listCsv: (params: ListParams = {}) => client.listCsv(LEAD_TYPE, params),
  /** The lead's contact values; the server records the reveal in the audit trail. */
  reveal: async (id: string): Promise<LeadValues> =>
    parseAnswer(LeadRevealedDocument, await client.call((http) => http.post(`${LEAD_TYPE}/${encodeURIComponent(id)}/reveal`).json<unknown>()), 'the reveal')
      .meta.values,
  /** Erasure on request (Admin, Super User); audited. */
  erase: (id: string) => client.remove(`${LEAD_TYPE}/${encodeURIComponent(id)}`),

  /** The preview's lead form of `kind`: the screener's contact fields and the outcome's message pair, as a participant reads them. */
  async previewForm(request: LeadPreviewRequest): Promise<{ kind: LeadKind; fields: RunnerContactField[]; messages: OutcomeMessages }> {
    const answer = await client.call((http) =>
      http.post(`${LEAD_TYPE}/preview-form`, { json: { data: { type: LEAD_PREVIEW_TYPE, attributes: request } } }).json<unknown>(),
    );
    const { data, meta } = parseAnswer(LeadFieldsDocument, answer, 'POST leads/preview-form');
    return { kind: meta.outcome, fields: data.map((r) => ({ id: r.id, ...r.attributes })), messages: meta.messages };
  },

  /** The preview's lead form as sent: its problems, or the thanks a kept lead shows. The server stores nothing. */
  async preview(
    request: LeadPreviewRequest & Pick<LeadPreviewInput, 'values' | 'acceptTerms' | 'zip'>,
  ): Promise<{ ok: true; messages: OutcomeMessages } | { ok: false; errors: FieldErrors }> {
    try {
      const answer = await client.call((http) =>
        http.post(`${LEAD_TYPE}/preview`, { json: { data: { type: LEAD_PREVIEW_TYPE, attributes: request } } }).json<unknown>(),
      );
      return { ok: true, messages: parseAnswer(LeadPreviewedDocument, answer, 'POST leads/preview').meta.messages };
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) return { ok: false, errors: fieldErrors({ errors: error.errors }) };
      throw error;
    }
  },
});

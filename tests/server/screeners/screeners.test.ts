import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  contactFieldScreeners,
  engagementScreeners,
  languages,
  mediaChannels,
  screenerLanguages,
  screenerMessages,
  screenerSurveys,
  screeners,
} from '../../../server/db/schema';
import { SCREENER_LOCKED } from '@core/model/screener';
import { UNKNOWN_IDENTITY } from '@core/model/surveyDoc';
import { NOT_A_CLONE } from '../../../server/screeners/routes';
import { ENGAGEMENT_OF_OTHER_SPONSOR } from '../../../server/screeners/engagements';
import { UNKNOWN_CONTACT_FIELD } from '../../../server/screeners/contactFields';
import { SURVEY_OF_ANOTHER_SPONSOR } from '../../../server/screeners/surveyLinks';
import { createHarness, json, type Harness } from '../harness';

let h: Harness;
let admin: string;
let user: string;
let sponsorId: number;
let otherSponsorId: number;
let engagementId: number;
let otherEngagementId: number;
let spanishId: number;
let englishId: number;
const fieldIds: number[] = [];

const doc = (type: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ data: { type, attributes, ...extra } });
const tableCount = async (table: PgTable, where?: SQL) => (await h.db.select({ n: count() }).from(table).where(where))[0]?.n ?? 0;

async function post(path: string, type: string, attributes: Record<string, unknown>, token = admin, extra: Record<string, unknown> = {}) {
  const res = await h.request('POST', path, { token, body: doc(type, attributes, extra) });
  return { res, body: await json(res) };
}

async function createScreener(attributes: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const { res, body } = await post('/api/screeners', 'screeners', { title: 'Heart screener', sponsorId, ...attributes }, admin, extra);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data;
}

/** The screener's title as stored: what a refused change leaves. */
const storedTitle = async (id: string) =>
  (
    await h.db
      .select()
      .from(screeners)
      .where(eq(screeners.id, Number(id)))
  )[0]?.title;
const patch = (id: string | number, attributes: Record<string, unknown>, token = admin, extra: Record<string, unknown> = {}) =>
  h.request('PATCH', `/api/screeners/${id}`, { token, body: { data: { type: 'screeners', id: String(id), attributes, ...extra } } });

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  sponsorId = Number((await post('/api/sponsors', 'sponsors', { name: 'Acme Pharma', identification: 'ACME' })).body.data.id);
  otherSponsorId = Number((await post('/api/sponsors', 'sponsors', { name: 'Other Bio', identification: 'OTHER' })).body.data.id);
  engagementId = Number((await post('/api/engagements', 'engagements', { name: 'Heart Study', identification: 'HS', sponsorId })).body.data.id);
  otherEngagementId = Number(
    (await post('/api/engagements', 'engagements', { name: 'Other Study', identification: 'OS', sponsorId: otherSponsorId })).body.data.id,
  );
  for (const name of ['t_first_name', 't_last_name', 't_email']) {
    fieldIds.push(Number((await post('/api/contact-fields', 'contact-fields', { label: name, name })).body.data.id));
  }
  const langs = await h.db.select().from(languages);
  spanishId = langs.find((l) => l.isoCode === 'es')!.id;
  englishId = langs.find((l) => l.isDefault)!.id;
  await h.createUser({ username: 'plain', roles: ['User'], sponsorIds: [sponsorId] });
  user = await h.token('plain', 'a-good-password');
});
afterAll(async () => {
  await h.close();
});

describe('screeners CRUD', () => {
  it('creates with defaults, styles defaults and empty messages; reads, lists by the default sort, updates and deletes', async () => {
    const created = await createScreener({ description: 'For heart patients' });
    expect(created.attributes).toMatchObject({
      title: 'Heart screener',
      screenerType: 'super-screener',
      isActive: true,
      isLocked: false,
      isTest: false,
      isInterestVisible: false,
      sponsorName: 'Acme Pharma',
      clonedFromId: null,
      engagements: [],
      languages: [],
    });
    expect(created.attributes.styles.progressBar).toEqual({ background: 'CCCCCC', color: null });
    expect(created.attributes.styles.backButton.isShown).toBe(true);
    expect(Object.keys(created.attributes.messages)).toEqual([
      'acceptance',
      'notActive',
      'notQualified',
      'noTrialSites',
      'qualified',
      'trialSiteSelected',
      'completed',
    ]);
    await createScreener({ title: 'Alpha inactive', isActive: false });
    await createScreener({ title: 'Beta active' });
    const list = await json(await h.request('GET', `/api/screeners?sponsorId=${sponsorId}`, { token: admin }));
    expect(list.data.map((s: any) => s.attributes.title)).toEqual(['Beta active', 'Heart screener', 'Alpha inactive']);
    expect(list.meta.total).toBe(3);
    expect((await h.request('GET', '/api/screeners?sort=bogus', { token: admin })).status).toBe(400);

    const res = await patch(created.id, { title: 'Renamed', isTest: true });
    expect(res.status).toBe(200);
    expect((await json(res)).data.attributes).toMatchObject({ title: 'Renamed', isTest: true, isActive: true });

    expect((await h.request('DELETE', `/api/screeners/${created.id}`, { token: admin })).status).toBe(204);
    expect((await h.request('GET', `/api/screeners/${created.id}`, { token: admin })).status).toBe(404);
  });

  it('validates every colour and answers 422 pointing at it, writing nothing', async () => {
    const before = await tableCount(screeners);
    const { res, body } = await post('/api/screeners', 'screeners', {
      title: 'Bad colours',
      sponsorId,
      styles: { nextButton: { active: '#FF0000' }, checkbox: { hover: 'ABC' }, progressBar: { background: 'zz' } },
    });
    expect(res.status).toBe(422);
    const pointers = body.errors.map((e: any) => e.source.pointer).sort();
    expect(pointers).toEqual([
      '/data/attributes/styles/checkbox/hover',
      '/data/attributes/styles/nextButton/active',
      '/data/attributes/styles/progressBar/background',
    ]);
    expect(body.errors[0].detail).toBe('Must be 6 or 2 hex characters.');
    expect(await tableCount(screeners)).toBe(before);

    const unknown = await post('/api/screeners', 'screeners', { title: 'x', sponsorId, styles: { nextButton: { glow: 'FFFFFF' } } });
    expect(unknown.res.status).toBe(422);

    const s = await createScreener({ title: 'Styled' });
    const ok = await patch(s.id, {
      styles: { nextButton: { active: 'ff0000', hover: '00' }, backButton: { isShown: false }, progressBar: { background: '' } },
    });
    expect(ok.status).toBe(200);
    const styles = (await json(ok)).data.attributes.styles;
    expect(styles.nextButton).toEqual({ active: 'FF0000', hover: '00', error: null });
    expect(styles.backButton.isShown).toBe(false);
    expect(styles.progressBar.background).toBe('CCCCCC');
    const bad = await patch(s.id, { styles: { nextButton: { active: 'red' } } });
    expect(bad.status).toBe(422);
    expect((await json(bad)).errors[0].source.pointer).toBe('/data/attributes/styles/nextButton/active');
  });

  it('stores the messages of each outcome with translations checked against the languages', async () => {
    const s = await createScreener({ title: 'Messages' });
    const res = await patch(s.id, {
      messages: {
        qualified: {
          consentMessage: 'You qualify',
          contactFormMessage: 'Tell us how to reach you',
          translations: { es: { consentMessage: 'Usted califica' } },
        },
        notQualified: { consentMessage: 'Sorry' },
      },
    });
    expect(res.status).toBe(200);
    const messages = (await json(res)).data.attributes.messages;
    expect(messages.qualified).toEqual({
      consentMessage: 'You qualify',
      contactFormMessage: 'Tell us how to reach you',
      translations: { es: { consentMessage: 'Usted califica' } },
    });
    expect(messages.notQualified.consentMessage).toBe('Sorry');
    expect(messages.completed.consentMessage).toBeNull();
    // Changing one outcome keeps the others.
    await patch(s.id, { messages: { notQualified: { consentMessage: 'Not this time' } } });
    const read = (await json(await h.request('GET', `/api/screeners/${s.id}`, { token: admin }))).data.attributes.messages;
    expect(read.qualified.consentMessage).toBe('You qualify');
    expect(read.notQualified.consentMessage).toBe('Not this time');
    expect(await tableCount(screenerMessages, eq(screenerMessages.screenerId, Number(s.id)))).toBe(2);

    const unknown = await patch(s.id, { messages: { qualified: { translations: { fr: { consentMessage: 'Oui' } } } } });
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).errors[0].source.pointer).toBe('/data/attributes/messages/qualified/translations/fr');
    const english = await patch(s.id, { messages: { qualified: { translations: { en: { consentMessage: 'Hi' } } } } });
    expect(english.status).toBe(422);
    const badOutcome = await patch(s.id, { messages: { rejected: { consentMessage: 'x' } } });
    expect(badOutcome.status).toBe(422);
    expect((await json(await h.request('GET', `/api/screeners/${s.id}`, { token: admin }))).data.attributes.messages.qualified.consentMessage).toBe(
      'You qualify',
    );
  });

  it('sets additional languages and engagements, and lists the languages', async () => {
    const s = await createScreener(
      { title: 'Linked' },
      {
        relationships: {
          languages: { data: [{ type: 'languages', id: String(spanishId) }] },
          engagements: { data: [{ type: 'engagements', id: String(engagementId) }] },
        },
      },
    );
    expect(s.attributes.languages).toEqual([{ id: spanishId, description: 'Spanish', isoCode: 'es' }]);
    expect(s.attributes.engagements).toEqual([{ id: engagementId, name: 'Heart Study' }]);
    const list = await json(await h.request('GET', `/api/screeners/languages-screeners?screenerId=${s.id}`, { token: admin }));
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ type: 'languages-screeners', attributes: { screenerId: Number(s.id), languageId: spanishId, isoCode: 'es' } });

    const english = await patch(s.id, {}, admin, { relationships: { languages: { data: [{ type: 'languages', id: String(englishId) }] } } });
    expect(english.status).toBe(422);

    const other = await post(`/api/engagements-screeners/update/${s.id}`, 'engagements-screeners', { engagementIds: [otherEngagementId] });
    expect(other.res.status).toBe(422);
    expect(other.body.errors[0].detail).toBe(ENGAGEMENT_OF_OTHER_SPONSOR);
    expect(await tableCount(engagementScreeners, eq(engagementScreeners.screenerId, Number(s.id)))).toBe(1);

    const cleared = await post(`/api/engagements-screeners/update/${s.id}`, 'engagements-screeners', { engagementIds: [] });
    expect(cleared.res.status).toBe(200);
    expect(cleared.body.data).toEqual([]);
    const again = await post(`/api/engagements-screeners/update/${s.id}`, 'engagements-screeners', { engagementIds: [engagementId] });
    expect(again.body.data[0].attributes).toMatchObject({ screenerId: Number(s.id), engagementId, engagementName: 'Heart Study' });
    expect((await post('/api/engagements-screeners/update/999999', 'engagements-screeners', { engagementIds: [] })).res.status).toBe(404);
  });
});

describe('contact fields of a screener', () => {
  it('replaces the set with weights in one go and lists it by weight', async () => {
    const s = await createScreener({ title: 'Contacts' });
    const set = (list: unknown[]) => post(`/api/contact-fields-screeners/update/${s.id}`, 'contact-fields-screeners', { contactFieldScreeners: list });
    const first = await set([
      { contactFieldId: fieldIds[0], weight: 2 },
      { contactFieldId: fieldIds[1], weight: 0 },
      { contactFieldId: fieldIds[2], weight: 1 },
    ]);
    expect(first.res.status).toBe(200);
    const list = await json(await h.request('GET', `/api/contact-fields-screeners?limit=100&sort=weight&screenerId=${s.id}`, { token: admin }));
    expect(list.data.map((r: any) => r.attributes.name)).toEqual(['t_last_name', 't_email', 't_first_name']);
    expect(list.meta.limit).toBe(100);

    const bad = await set([
      { contactFieldId: fieldIds[0], weight: 0 },
      { contactFieldId: 999999, weight: 1 },
    ]);
    expect(bad.res.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ detail: UNKNOWN_CONTACT_FIELD, source: { pointer: '/data/attributes/contactFieldScreeners/1/contactFieldId' } });
    const dup = await set([
      { contactFieldId: fieldIds[0], weight: 0 },
      { contactFieldId: fieldIds[0], weight: 1 },
    ]);
    expect(dup.res.status).toBe(422);
    // Nothing changed by the refused writes.
    expect(await tableCount(contactFieldScreeners, eq(contactFieldScreeners.screenerId, Number(s.id)))).toBe(3);

    const reordered = await set([
      { contactFieldId: fieldIds[2], weight: 0 },
      { contactFieldId: fieldIds[0], weight: 1 },
    ]);
    expect(reordered.body.data.map((r: any) => r.attributes.name)).toEqual(['t_email', 't_first_name']);
    expect(await tableCount(contactFieldScreeners, eq(contactFieldScreeners.screenerId, Number(s.id)))).toBe(2);
  });
});

describe('locking and roles', () => {
  it('refuses every change to a locked screener with 409 until it is unlocked', async () => {
    const s = await createScreener({ title: 'Locked one' });
    expect((await patch(s.id, { isLocked: true })).status).toBe(200);
    const refused = await patch(s.id, { title: 'Changed' });
    expect(refused.status).toBe(409);
    expect((await json(refused)).errors[0].detail).toBe(SCREENER_LOCKED);
    expect((await patch(s.id, { isLocked: false, title: 'Sneaky' })).status).toBe(409);
    expect((await h.request('DELETE', `/api/screeners/${s.id}`, { token: admin })).status).toBe(409);
    expect((await post(`/api/contact-fields-screeners/update/${s.id}`, 'contact-fields-screeners', { contactFieldScreeners: [] })).res.status).toBe(409);
    expect((await post(`/api/engagements-screeners/update/${s.id}`, 'engagements-screeners', { engagementIds: [] })).res.status).toBe(409);
    expect((await post('/api/screener-surveys', 'screener-surveys', { screenerId: Number(s.id), oFormIdentity: 'survey-a' })).res.status).toBe(409);
    expect(await storedTitle(s.id)).toBe('Locked one');

    const unlocked = await patch(s.id, { isLocked: false });
    expect(unlocked.status).toBe(200);
    expect((await patch(s.id, { title: 'Changed' })).status).toBe(200);
  });

  it('lets a User read the screeners of their sponsors only, and never change one (403)', async () => {
    const mine = await createScreener({ title: 'Mine' });
    const theirs = await createScreener({ title: 'Theirs', sponsorId: otherSponsorId });
    const list = await json(await h.request('GET', '/api/screeners?limit=100', { token: user }));
    const titles = list.data.map((s: any) => s.attributes.title);
    expect(titles).toContain('Mine');
    expect(titles).not.toContain('Theirs');
    expect((await h.request('GET', `/api/screeners/${mine.id}`, { token: user })).status).toBe(200);
    expect((await h.request('GET', `/api/screeners/${theirs.id}`, { token: user })).status).toBe(404);

    expect((await patch(mine.id, { title: 'Nope' }, user)).status).toBe(403);
    expect((await post('/api/screeners', 'screeners', { title: 'Nope', sponsorId }, user)).res.status).toBe(403);
    expect((await h.request('DELETE', `/api/screeners/${mine.id}`, { token: user })).status).toBe(403);
    expect((await post(`/api/contact-fields-screeners/update/${mine.id}`, 'contact-fields-screeners', { contactFieldScreeners: [] }, user)).res.status).toBe(
      403,
    );
    expect((await post(`/api/screeners/${mine.id}/clone`, 'screeners', {}, user)).res.status).toBe(403);
    expect(await storedTitle(mine.id)).toBe('Mine');
  });
});

describe('cloning', () => {
  it('copies everything and marks the clone; deleting the clone leaves no orphan rows and the source intact', async () => {
    const source = await createScreener(
      {
        title: 'Source',
        styles: { nextButton: { active: '112233' } },
        messages: { completed: { consentMessage: 'Thanks', translations: { es: { consentMessage: 'Gracias' } } } },
      },
      {
        relationships: {
          languages: { data: [{ type: 'languages', id: String(spanishId) }] },
          engagements: { data: [{ type: 'engagements', id: String(engagementId) }] },
        },
      },
    );
    const sid = Number(source.id);
    await post(`/api/contact-fields-screeners/update/${sid}`, 'contact-fields-screeners', {
      contactFieldScreeners: [
        { contactFieldId: fieldIds[0], weight: 1 },
        { contactFieldId: fieldIds[1], weight: 0 },
      ],
    });
    expect((await post('/api/screener-surveys', 'screener-surveys', { screenerId: sid, oFormIdentity: 'intake' })).res.status).toBe(201);

    const counts = async (id: number) => ({
      messages: await tableCount(screenerMessages, eq(screenerMessages.screenerId, id)),
      languages: await tableCount(screenerLanguages, eq(screenerLanguages.screenerId, id)),
      engagements: await tableCount(engagementScreeners, eq(engagementScreeners.screenerId, id)),
      contactFields: await tableCount(contactFieldScreeners, eq(contactFieldScreeners.screenerId, id)),
      surveys: await tableCount(screenerSurveys, eq(screenerSurveys.screenerId, id)),
    });
    const sourceCounts = await counts(sid);
    expect(sourceCounts).toEqual({ messages: 1, languages: 1, engagements: 1, contactFields: 2, surveys: 1 });

    const cloned = await post(`/api/screeners/${sid}/clone`, 'screeners', {});
    expect(cloned.res.status).toBe(201);
    const clone = cloned.body.data;
    expect(clone.attributes).toMatchObject({ title: 'Source (Copy)', clonedFromId: sid, isLocked: false, sponsorId });
    expect(clone.attributes.styles.nextButton.active).toBe('112233');
    expect(clone.attributes.messages.completed.translations).toEqual({ es: { consentMessage: 'Gracias' } });
    expect(clone.attributes.languages.map((l: any) => l.isoCode)).toEqual(['es']);
    expect(clone.attributes.engagements.map((e: any) => e.id)).toEqual([engagementId]);
    const cid = Number(clone.id);
    expect(await counts(cid)).toEqual(sourceCounts);
    const weights = await json(await h.request('GET', `/api/contact-fields-screeners?screenerId=${cid}`, { token: admin }));
    expect(weights.data.map((r: any) => [r.attributes.contactFieldId, r.attributes.weight])).toEqual([
      [fieldIds[1], 0],
      [fieldIds[0], 1],
    ]);

    const named = await post(`/api/screeners/${sid}/clone`, 'screeners', { title: 'Named copy' });
    expect(named.body.data.attributes.title).toBe('Named copy');
    const bodiless = await h.request('POST', `/api/screeners/${sid}/clone`, { token: admin });
    expect(bodiless.status).toBe(201);
    expect((await json(bodiless)).data.attributes.title).toBe('Source (Copy)');
    expect((await post(`/api/screeners/${sid}/clone`, 'screeners', { title: '' })).res.status).toBe(422);
    expect((await post('/api/screeners/999999/clone', 'screeners', {})).res.status).toBe(404);

    const notClone = await h.request('DELETE', `/api/screeners/clone/${sid}`, { token: admin });
    expect(notClone.status).toBe(409);
    expect((await json(notClone)).errors[0].detail).toBe(NOT_A_CLONE);

    expect((await h.request('DELETE', `/api/screeners/clone/${cid}`, { token: admin })).status).toBe(204);
    expect(await h.db.select().from(screeners).where(eq(screeners.id, cid))).toEqual([]);
    expect(await counts(cid)).toEqual({ messages: 0, languages: 0, engagements: 0, contactFields: 0, surveys: 0 });
    expect(await counts(sid)).toEqual(sourceCounts);
  });

  it('refuses update-surveys for a non-clone; a clone whose links name no versioned survey has nothing to refresh', async () => {
    const source = await createScreener({ title: 'Update source' });
    await post('/api/screener-surveys', 'screener-surveys', { screenerId: Number(source.id), oFormIdentity: 'no-versions-yet' });
    const clone = (await post(`/api/screeners/${source.id}/clone`, 'screeners', {})).body.data;
    const body = { data: { type: 'screeners', id: source.id, attributes: {} } };
    expect((await h.request('PATCH', `/api/screeners/update-surveys/${source.id}`, { token: admin, body })).status).toBe(409);
    const res = await h.request('PATCH', `/api/screeners/update-surveys/${clone.id}`, { token: admin, body });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual([]);
  });
});

describe('screener surveys', () => {
  it("links only the screener's sponsor's surveys: another sponsor's is a 422 that writes nothing", async () => {
    const s = await createScreener({ title: 'Own surveys only' });
    const sid = Number(s.id);
    const survey = async (engagement: number) =>
      (await post('/api/o-forms/o-forms', 'o-forms', { title: 'Intake', engagementId: engagement })).body.data.attributes.identity as string;
    const own = await survey(engagementId);
    const foreign = await survey(otherEngagementId);
    const before = await tableCount(screenerSurveys);
    for (const cloneSurvey of [false, true]) {
      const refused = await post('/api/screener-surveys', 'screener-surveys', { screenerId: sid, oFormIdentity: foreign, cloneSurvey });
      expect(refused.res.status).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({ detail: SURVEY_OF_ANOTHER_SPONSOR, source: { pointer: '/data/attributes/oFormIdentity' } });
    }
    expect(await tableCount(screenerSurveys)).toBe(before);
    expect((await post('/api/screener-surveys', 'screener-surveys', { screenerId: sid, oFormIdentity: own })).res.status).toBe(201);
  });

  it('adds, lists, changes, toggles and removes survey identities, and draws the flow', async () => {
    const s = await createScreener({ title: 'Surveys' });
    const sid = Number(s.id);
    const a = await post('/api/screener-surveys', 'screener-surveys', { screenerId: sid, oFormIdentity: 'intake', displayOrder: 1 });
    expect(a.res.status).toBe(201);
    const b = await post('/api/screener-surveys', 'screener-surveys', { screenerId: sid, oFormIdentity: 'followup', displayOrder: 0, cloneSurvey: false });
    expect(b.res.status).toBe(201);
    const dup = await post('/api/screener-surveys', 'screener-surveys', { screenerId: sid, oFormIdentity: 'intake' });
    expect(dup.res.status).toBe(409);
    const bad = await post('/api/screener-surveys', 'screener-surveys', { screenerId: sid, oFormIdentity: 'has spaces' });
    expect(bad.res.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/oFormIdentity');
    // Only a survey with a version can be copied.
    const cloneSurvey = await post('/api/screener-surveys', 'screener-surveys', { screenerId: sid, oFormIdentity: 'copyme', cloneSurvey: true });
    expect(cloneSurvey.res.status).toBe(422);
    expect(cloneSurvey.body.errors[0]).toMatchObject({ detail: UNKNOWN_IDENTITY, source: { pointer: '/data/attributes/oFormIdentity' } });

    const list = await json(await h.request('GET', `/api/screener-surveys?screenerId=${sid}`, { token: admin }));
    expect(list.data.map((r: any) => r.attributes.oFormIdentity)).toEqual(['followup', 'intake']);

    const aid = a.body.data.id;
    const changed = await h.request('PATCH', `/api/screener-surveys/${aid}`, {
      token: admin,
      body: { data: { type: 'screener-surveys', id: aid, attributes: { displayOrder: 5 } } },
    });
    expect((await json(changed)).data.attributes.displayOrder).toBe(5);

    const toggle = () =>
      h.request('PATCH', `/api/screeners/surveys/${aid}`, {
        token: admin,
        body: { data: { type: 'screener-surveys', id: aid, attributes: { toggle_active: true } } },
      });
    expect((await json(await toggle())).data.attributes.isActive).toBe(false);
    expect((await json(await toggle())).data.attributes.isActive).toBe(true);

    const flow = await json(await h.request('GET', `/api/screener-surveys/flow/${sid}`, { token: admin }));
    expect(flow.data.attributes.nodes.map((n: any) => n.oFormIdentity)).toEqual(['followup', 'intake']);
    expect(flow.data.attributes.edges).toEqual([]);
    expect((await h.request('GET', '/api/screener-surveys/flow/999999', { token: admin })).status).toBe(404);

    expect((await h.request('DELETE', `/api/screener-surveys/${aid}`, { token: admin })).status).toBe(204);
    expect(await tableCount(screenerSurveys, eq(screenerSurveys.screenerId, sid))).toBe(1);
  });
});

describe('deleting a screener with media channels', () => {
  it('is refused while a media channel embeds it', async () => {
    const s = await createScreener({ title: 'Embedded' });
    await h.db.insert(mediaChannels).values({ title: 'Site', domain: 'example.com', screenerId: Number(s.id), channelType: 'Other' });
    expect((await h.request('DELETE', `/api/screeners/${s.id}`, { token: admin })).status).toBe(409);
  });
});

describe('bad input never writes and never answers 500', () => {
  it('answers each malformed call with a JSON:API client error', async () => {
    const s = await createScreener({ title: 'Robust' });
    const cases: [string, string, unknown, number][] = [
      ['GET', '/api/screeners?sponsorId=abc', undefined, 400],
      ['GET', '/api/screeners?isActive=maybe', undefined, 400],
      ['GET', '/api/screeners?unknown=1', undefined, 400],
      ['GET', '/api/screeners/languages-screeners?screenerId=x', undefined, 400],
      ['GET', '/api/contact-fields-screeners?screenerId=-1', undefined, 400],
      ['GET', '/api/contact-fields-screeners?sort=name', undefined, 400],
      ['GET', '/api/screeners/abc', undefined, 404],
      ['POST', '/api/screeners', '{not json', 400],
      ['POST', '/api/screeners', { data: { type: 'sponsors', attributes: { title: 'x', sponsorId } } }, 409],
      ['POST', '/api/screeners', { data: { type: 'screeners', attributes: { title: 'x', sponsorId: 999999 } } }, 422],
      ['POST', '/api/screeners', { data: { type: 'screeners', attributes: { title: 'x', sponsorId, bogus: 1 } } }, 422],
      [
        'POST',
        '/api/screeners',
        { data: { type: 'screeners', attributes: { title: 'x', sponsorId }, relationships: { languages: { data: [{ type: 'languages', id: '999999' }] } } } },
        422,
      ],
      ['POST', '/api/screeners', { data: { type: 'screeners', attributes: { title: 'x', sponsorId }, relationships: { tags: { data: [] } } } }, 422],
      ['PATCH', `/api/screeners/${s.id}`, { data: { type: 'screeners', id: '1', attributes: {} } }, 409],
      [
        'POST',
        `/api/contact-fields-screeners/update/${s.id}`,
        { data: { type: 'contact-fields-screeners', attributes: { contactFieldScreeners: 'all' } } },
        422,
      ],
      [
        'POST',
        `/api/contact-fields-screeners/update/${s.id}`,
        { data: { type: 'contact-fields-screeners', attributes: { contactFieldScreeners: [{ contactFieldId: fieldIds[0], weight: -1 }] } } },
        422,
      ],
      ['POST', '/api/contact-fields-screeners/update/abc', { data: { type: 'contact-fields-screeners', attributes: { contactFieldScreeners: [] } } }, 404],
      ['POST', `/api/engagements-screeners/update/${s.id}`, { data: { type: 'engagements-screeners', attributes: { engagementIds: [999999] } } }, 422],
      ['POST', '/api/screener-surveys', { data: { type: 'screener-surveys', attributes: { screenerId: 999999, oFormIdentity: 'x' } } }, 422],
      ['PATCH', '/api/screener-surveys/999999', { data: { type: 'screener-surveys', attributes: { isActive: false } } }, 404],
      ['PATCH', '/api/screeners/surveys/999999', { data: { type: 'screener-surveys', attributes: { toggle_active: true } } }, 404],
      ['DELETE', '/api/screeners/clone/abc', undefined, 404],
    ];
    const before = await tableCount(screeners);
    for (const [method, path, body, status] of cases) {
      const res = await h.request(method, path, { token: admin, body });
      expect(res.status, `${method} ${path}`).toBe(status);
      expect((await json(res)).errors?.length, `${method} ${path}`).toBeGreaterThan(0);
    }
    expect(await tableCount(screeners)).toBe(before);
    for (const path of [
      '/api/screeners',
      '/api/media-channels',
      '/api/contact-fields-screeners',
      '/api/screener-surveys',
      '/api/screeners/languages-screeners',
    ]) {
      expect((await h.request('GET', path)).status, path).toBe(401);
    }
  });
});

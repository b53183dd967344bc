/**
 * The participant API up to qualification (issue 7, docs/participant-api.md), on the real
 * server and database: the token, access (notActive), answers and branching, sanitization,
 * the qualification matrix, channel figures, CORS and rate limits.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelFigures } from '../../../server/participant/channelFigures';
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import { rowsOf, rowWithId } from '../../../server/db/rows';
import { startFactsSelect } from '../../../server/participant/startFacts';
import { givenAnswersOf } from '../storedAnswers';
import { json, type Harness } from '../harness';
import { createApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { createLogger } from '../../../server/log';
import {
  answerPage,
  createParticipantFixture,
  runQualified,
  startSubmission,
  TOKEN_HEADER,
  type ParticipantFixture,
  withToken,
} from '../../support/participantFixture';
import { secondApp, submissionRow, useParticipantServer } from '../participantServer';
import { MISSING_TOKEN } from '../../../server/participant/access';
import { FIRST_PAGE_ONLY } from '../../../server/participant/api';
import { savePage } from '../../../server/participant/entries';
import { sanitizeHtml } from '../../../server/security/sanitizeHtml';
import { outcomeMessages } from '../../../server/participant/messages';
import { answerProblems, type SurveyField } from '../../../server/participant/runSurvey';
import { ageOn } from '../../../server/participant/qualification';
import { contactMatcherOf } from '../../../server/security/contactMatch';
import { DEFAULT_SURVEY_MESSAGES } from '@core/model/surveyMessage';
import { checkParticipantAnswer } from '@core/participant/responses';
import type { FieldConfiguration } from '@core/model/survey';
import {
  contactFieldScreeners,
  languages,
  mediaChannels,
  mediaChannelSurveys,
  oFormLanguages,
  screeners,
  screenerSurveys,
  rateLimits,
  mediaChannelFigures,
  oFormContainers,
  oFormFieldEntries,
  oFormFields,
  oFormContainerEntries,
  oFormMessages,
  oFormSubmissions,
  oForms,
  oFormPageMetrics,
} from '../../../server/db/schema';

let h: Harness;
let f: ParticipantFixture;

useParticipantServer((server) => ({ h, f } = server));

const entryBody = (containerId: number, submissionId: string | number, parentId?: string) => ({
  data: {
    type: 'o-form-container-entries',
    attributes: { oFormContainerId: containerId, oFormSubmissionId: Number(submissionId), ...(parentId ? { parentId } : {}) },
  },
});
const figuresOf = async (id: number) => (await channelFigures(h.db, [id])).get(id)!;
/** The submission's answers as given (sealed ones opened). */
const answersOf = (submissionId: string) => givenAnswersOf(h.db, h.phi, submissionId);
/** A submission's page entries, as stored. */
const entriesOf = (submissionId: string) =>
  h.db
    .select()
    .from(oFormContainerEntries)
    .where(eq(oFormContainerEntries.submissionId, Number(submissionId)));
/** Adds a child container ('More') to the fixture's survey under page `pageId`. */
async function addChildContainer(fx: ParticipantFixture, pageId: number, identity: string) {
  const [child] = await h.db
    .insert(oFormContainers)
    .values({ identity, oFormId: fx.oFormId, title: 'More', displayOrder: 1, containerType: 'child_container', parentId: pageId })
    .returning();
  return child!;
}
/** A fixture of its own whose page-3 multiple-choice question disqualifies: "b" for its second engagement, "none" for every one. */
async function fixtureDisqualifyingConditions(): Promise<ParticipantFixture> {
  const fx = await createParticipantFixture(h.db);
  const [conditions] = await h.db.select().from(oFormFields).where(eq(oFormFields.id, fx.fields.q_conditions.id));
  const configuration = conditions!.configuration as FieldConfiguration;
  const options = configuration.options.map((o) =>
    o.value === 'none' ? { ...o, isDisqualified: true } : o.value === 'b' ? { ...o, disqualifiedFor: [fx.engagementIds[1]] } : o,
  );
  await h.db
    .update(oFormFields)
    .set({ configuration: { ...configuration, options } })
    .where(eq(oFormFields.id, conditions!.id));
  return fx;
}

const qualification = async (submissionId: string, token: string) => {
  const res = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers: withToken(token) });
  expect(res.status).toBe(200);
  return (await json(res)).meta as { isQualified: boolean; outcome: string; engagementIds: string[]; messages: { contactForm: string; consent: string } };
};

describe('participant start and submissions', () => {
  it('starts a runnable survey through its channel, counting nothing (a bare request is no view)', async () => {
    const before = await figuresOf(f.mediaChannelId);
    const res = await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${f.mediaChannelId}&screenerId=${f.screenerId}`);
    expect(res.status).toBe(200);
    const { meta } = await json(res);
    expect(meta).toMatchObject({ runnable: true, oFormId: String(f.oFormId), oFormIdentity: f.oFormIdentity, containerCount: 3, languages: ['en', 'es'] });
    expect(meta.firstPage.data.attributes).toMatchObject({ identity: 'p1', title: 'Page 1', translations: { es: { title: 'Página 1' } } });
    const options = meta.firstPage.included.find((r: { attributes: { identity: string } }) => r.attributes.identity === 'q_choice').attributes.configuration
      .options;
    // Which answers disqualify stays on the server.
    expect(options.every((o: { isDisqualified: boolean; disqualifiedFor?: unknown }) => o.isDisqualified === false && o.disqualifiedFor === undefined)).toBe(
      true,
    );
    expect(await figuresOf(f.mediaChannelId)).toEqual(before);
  });

  it('counts a view when the widget says it was seen, on an active channel only', async () => {
    const view = (mediaChannelId: unknown, headers: Record<string, string> = {}) =>
      h.request('POST', `/api/o-forms/participant-views?mediaChannelId=${String(mediaChannelId)}`, {
        headers,
        body: { data: { type: 'participant-views', attributes: { mediaChannelId } } },
      });
    const before = await figuresOf(f.mediaChannelId);
    const res = await view(f.mediaChannelId, { Origin: `https://${f.domain}` });
    expect(res.status).toBe(202);
    expect(await json(res)).toEqual({ meta: { counted: true } });
    expect(res.headers.get('access-control-allow-origin')).toBe(`https://${f.domain}`);
    expect(await figuresOf(f.mediaChannelId)).toEqual({ ...before, views: before.views + 1 });

    const inactive = await createParticipantFixture(h.db, { channelActive: false });
    const off = await view(inactive.mediaChannelId);
    expect(await json(off)).toEqual({ meta: { counted: false } });
    expect((await figuresOf(inactive.mediaChannelId)).views).toBe(0);

    // Another site's page, an unknown channel, a malformed id or body: refused, nothing counted.
    expect((await view(f.mediaChannelId, { Origin: 'https://evil.example' })).status).toBe(403);
    const unknown = await view(987654);
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).errors[0]).toMatchObject({
      detail: 'Choose a media channel from the list.',
      source: { pointer: '/data/attributes/mediaChannelId' },
    });
    expect((await view('twelve')).status).toBe(422);
    const noBody = await h.request('POST', `/api/o-forms/participant-views?mediaChannelId=${f.mediaChannelId}`, { body: { views: 1 } });
    expect(noBody.status).toBe(422);
    expect(await figuresOf(f.mediaChannelId)).toEqual({ ...before, views: before.views + 1 });
  });

  it('creates a submission with its token in a header, stored only as a hash, counted as started once its participant saves a page', async () => {
    const before = await figuresOf(f.mediaChannelId);
    const res = await h.request('POST', '/api/o-forms/o-form-submissions', {
      body: { data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: f.mediaChannelId, language: 'es_MX' } } },
    });
    expect(res.status).toBe(201);
    const token = res.headers.get(TOKEN_HEADER)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { data } = await json(res);
    expect(data.attributes).toMatchObject({ status: 'in_progress', oFormId: f.oFormId, language: 'es' });
    const row = await submissionRow(h, data.id);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.tokenHash).not.toContain(token);
    // Created, not yet started: nothing answered.
    expect((await figuresOf(f.mediaChannelId)).submissionsStarted).toBe(before.submissionsStarted);
    const entry = await json(
      await h.request('POST', '/api/o-forms/o-form-container-entries', { headers: withToken(token), body: entryBody(f.pages.p1.id, data.id) }),
    );
    const p1 = await answerPage(h, token, entry.data.id, { q_choice: 'yes' });
    expect(p1.status).toBe(200);
    expect((await figuresOf(f.mediaChannelId)).submissionsStarted).toBe(before.submissionsStarted + 1);
    // Saving that page again, or the next one, starts nothing more.
    expect((await answerPage(h, token, entry.data.id, { q_choice: 'yes' })).status).toBe(200);
    expect((await answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' })).status).toBe(200);
    expect((await figuresOf(f.mediaChannelId)).submissionsStarted).toBe(before.submissionsStarted + 1);
  });

  it('counts every one of many submissions started at once on one channel, spread over its figure rows', async () => {
    const fx = await createParticipantFixture(h.db);
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        const s = await startSubmission(h, fx, { withFirstPage: true });
        expect((await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
      }),
    );
    expect((await figuresOf(fx.mediaChannelId)).submissionsStarted).toBe(40);
    // Saves that gather into one batch are counted by one statement, in one row; saves written
    // apart each draw a row, so the channel's count is spread however the saves were batched.
    for (let i = 0; i < 8; i++) {
      const s = await startSubmission(h, fx, { withFirstPage: true });
      expect((await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
    }
    const shards = await h.db.select().from(mediaChannelFigures).where(eq(mediaChannelFigures.mediaChannelId, fx.mediaChannelId));
    expect(shards.length).toBeGreaterThan(1);
    expect(shards.reduce((sum, s) => sum + s.submissionsStarted, 0)).toBe(48);
  });

  it("opens the survey's first page with the submission, in the same statement, its child containers' entries under it", async () => {
    const fx = await createParticipantFixture(h.db);
    const child = await addChildContainer(fx, fx.pages.p1.id, 'p1-child');
    const start = () =>
      h.request('POST', '/api/o-forms/o-form-submissions', {
        body: {
          data: { type: 'o-form-submissions', attributes: { oFormId: fx.oFormId, mediaChannelId: fx.mediaChannelId, oFormContainerId: fx.pages.p1.id } },
        },
      });
    // What the start reads is kept once a run started on it (startFacts.ts): from then on a start
    // with its page is one statement.
    expect((await start()).status).toBe(201);
    const started = (await figuresOf(fx.mediaChannelId)).submissionsStarted;
    h.takeStatements();
    const res = await start();
    expect(h.takeStatements()).toHaveLength(1);
    expect(res.status).toBe(201);
    const doc = await json(res);
    expect(() => checkParticipantAnswer('submission', 201, doc)).not.toThrow();
    const entryId = Number(doc.meta.containerEntryId);
    const entries = await entriesOf(doc.data.id);
    expect(entries.map((e) => ({ id: e.id, containerId: e.containerId, parentId: e.parentId, answered: e.answeredAt !== null }))).toEqual([
      { id: entryId, containerId: fx.pages.p1.id, parentId: null, answered: false },
      { id: expect.any(Number), containerId: child!.id, parentId: entryId, answered: false },
    ]);
    expect((await figuresOf(fx.mediaChannelId)).submissionsStarted).toBe(started);
    // The entry is the one the page's answers go to, as one made by POST o-form-container-entries.
    const token = res.headers.get(TOKEN_HEADER)!;
    const p1 = await answerPage(h, token, String(entryId), { q_choice: 'yes' });
    expect(p1.meta).toMatchObject({ success: true, nextContainerIdentity: 'p2' });
    expect((await figuresOf(fx.mediaChannelId)).submissionsStarted).toBe(started + 1);
    const read = await json(
      await h.request('GET', `/api/o-forms/o-form-container-entries/${entryId}?include=oFormFieldEntries`, { headers: withToken(token) }),
    );
    expect(read.meta.answers).toEqual({ q_choice: 'yes' });
    expect(read.data.relationships.childEntries.data).toHaveLength(1);
    // Without the page, the start answers the submission alone, as before.
    const plain = await json(
      await h.request('POST', '/api/o-forms/o-form-submissions', {
        body: { data: { type: 'o-form-submissions', attributes: { oFormId: fx.oFormId, mediaChannelId: fx.mediaChannelId } } },
      }),
    );
    expect(plain.meta).toBeUndefined();
    expect(await entriesOf(plain.data.id)).toEqual([]);
  });

  it('decides a start on what an earlier start read while nothing changed, and reads again after any change it rests on', async () => {
    const fx = await createParticipantFixture(h.db);
    const start = async (language = 'en') => {
      h.takeStatements();
      const res = await h.request('POST', '/api/o-forms/o-form-submissions', {
        body: { data: { type: 'o-form-submissions', attributes: { oFormId: fx.oFormId, mediaChannelId: fx.mediaChannelId, language } } },
      });
      const doc = await json(res);
      return { status: res.status, statements: h.takeStatements().length, data: doc.data as { attributes: { language: string } } | null };
    };
    // The runs the start made: a refusal's own submission, made at notActive for its lead form, is none.
    const submissions = async () =>
      (
        await h.db
          .select({ id: oFormSubmissions.id })
          .from(oFormSubmissions)
          .where(and(eq(oFormSubmissions.oFormId, fx.oFormId), isNull(oFormSubmissions.outcome)))
      ).length;
    expect(await start()).toMatchObject({ status: 201, statements: 2 });
    expect(await start()).toMatchObject({ status: 201, statements: 1 });
    const [link] = await h.db.select().from(screenerSurveys).where(eq(screenerSurveys.screenerId, fx.screenerId));
    // Each change, then its undoing: the kept read is not acted on once either is written.
    const changes: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'survey version',
        () => h.db.update(oForms).set({ isActive: false }).where(eq(oForms.id, fx.oFormId)),
        () => h.db.update(oForms).set({ isActive: true }).where(eq(oForms.id, fx.oFormId)),
      ],
      [
        'channel',
        () => h.db.update(mediaChannels).set({ isActive: false }).where(eq(mediaChannels.id, fx.mediaChannelId)),
        () => h.db.update(mediaChannels).set({ isActive: true }).where(eq(mediaChannels.id, fx.mediaChannelId)),
      ],
      [
        'screener',
        () => h.db.update(screeners).set({ isActive: false }).where(eq(screeners.id, fx.screenerId)),
        () => h.db.update(screeners).set({ isActive: true }).where(eq(screeners.id, fx.screenerId)),
      ],
      [
        "screener's survey",
        () => h.db.update(screenerSurveys).set({ isActive: false }).where(eq(screenerSurveys.id, link!.id)),
        () => h.db.update(screenerSurveys).set({ isActive: true }).where(eq(screenerSurveys.id, link!.id)),
      ],
      [
        "channel's surveys",
        () => h.db.update(mediaChannelSurveys).set({ isActive: false }).where(eq(mediaChannelSurveys.mediaChannelId, fx.mediaChannelId)),
        () => h.db.update(mediaChannelSurveys).set({ isActive: true }).where(eq(mediaChannelSurveys.mediaChannelId, fx.mediaChannelId)),
      ],
    ];
    for (const [what, change, undo] of changes) {
      await change();
      const before = await submissions();
      // The kept read's write finds it stale and writes nothing; read again, the run is not active.
      expect({ what, ...(await start()) }).toMatchObject({ what, status: 200, data: null });
      expect(await submissions()).toBe(before);
      await undo();
      expect({ what, ...(await start()) }).toMatchObject({ what, status: 201, statements: 2 });
      expect(await start()).toMatchObject({ status: 201, statements: 1 });
    }
    // The languages offered: a run in Spanish while the survey offers it, in English once it does not.
    expect((await start('es')).data?.attributes.language).toBe('es');
    const [spanish] = await h.db.select().from(languages).where(eq(languages.isoCode, 'es'));
    await h.db.delete(oFormLanguages).where(and(eq(oFormLanguages.oFormId, fx.oFormId), eq(oFormLanguages.languageId, spanish!.id)));
    expect((await start('es')).data?.attributes.language).toBe('en');
    await h.db.insert(oFormLanguages).values({ oFormId: fx.oFormId, languageId: spanish!.id });
    expect((await start('es')).data?.attributes.language).toBe('es');
    await h.db.update(languages).set({ isActive: false }).where(eq(languages.id, spanish!.id));
    try {
      expect((await start('es')).data?.attributes.language).toBe('en');
    } finally {
      await h.db.update(languages).set({ isActive: true }).where(eq(languages.id, spanish!.id));
    }
  });

  it('raises the settings version on a change to every table the start reads', async () => {
    const { sql: text } = startFactsSelect(h.db).toSQL();
    const tables = [...new Set([...text.matchAll(/\b(?:from|join)\s+"(\w+)"/gi)].map((m) => m[1]!))].sort();
    expect(tables).toEqual(
      expect.arrayContaining(['languages', 'media_channel_surveys', 'media_channels', 'o_form_languages', 'o_forms', 'screener_surveys', 'screeners']),
    );
    const withTrigger = rowsOf(
      await h.db.execute(sql`select c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = 'participant_settings_changed'`),
    ).map((r) => String(r.name));
    expect(tables.filter((t) => t !== 'participant_settings_version' && !withTrigger.includes(t))).toEqual([]);
  });

  it("refuses to open any page but the survey's first with the submission, writing nothing", async () => {
    const fx = await createParticipantFixture(h.db);
    const counts = async () => ({
      started: (await figuresOf(fx.mediaChannelId)).submissionsStarted,
      submissions: (await h.db.select({ id: oFormSubmissions.id }).from(oFormSubmissions).where(eq(oFormSubmissions.oFormId, fx.oFormId))).length,
      entries: (await h.db.select({ id: oFormContainerEntries.id }).from(oFormContainerEntries)).length,
    });
    const before = await counts();
    const start = (oFormContainerId: unknown) =>
      h.request('POST', '/api/o-forms/o-form-submissions', {
        body: { data: { type: 'o-form-submissions', attributes: { oFormId: fx.oFormId, mediaChannelId: fx.mediaChannelId, oFormContainerId } } },
      });
    for (const [page, detail] of [
      [fx.pages.p2.id, FIRST_PAGE_ONLY],
      [f.pages.p1.id, FIRST_PAGE_ONLY],
      [999999, FIRST_PAGE_ONLY],
    ] as const) {
      const res = await start(page);
      expect(res.status).toBe(422);
      expect((await json(res)).errors).toEqual([expect.objectContaining({ detail, source: { pointer: '/data/attributes/oFormContainerId' } })]);
    }
    for (const malformed of ['abc', -1, 1.5, {}]) {
      const res = await start(malformed);
      expect(res.status).toBe(422);
      expect((await json(res)).errors[0].source.pointer).toBe('/data/attributes/oFormContainerId');
    }
    expect(await counts()).toEqual(before);
  });

  it('opens no page when a rate limit refuses the start', async () => {
    const fx = await createParticipantFixture(h.db);
    h.clock.set('2027-09-03T10:00:00Z');
    const app = secondApp(h, { PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '1' });
    const start = () =>
      app.request(
        '/api/o-forms/o-form-submissions',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify({
            data: { type: 'o-form-submissions', attributes: { oFormId: fx.oFormId, mediaChannelId: fx.mediaChannelId, oFormContainerId: fx.pages.p1.id } },
          }),
        },
        { incoming: { socket: { remoteAddress: '203.0.113.20', remotePort: 5000, remoteFamily: 'IPv4' } } },
      );
    expect((await start()).status).toBe(201);
    const entries = async () => (await h.db.select({ id: oFormContainerEntries.id }).from(oFormContainerEntries)).length;
    const before = await entries();
    expect((await start()).status).toBe(429);
    expect(await entries()).toBe(before);
  });

  it('answers notActive for an inactive survey, channel or screener with a submission its lead is left through, never started; none for an unapproved version', async () => {
    for (const options of [{ formActive: false }, { channelActive: false }, { screenerActive: false }, { approved: false }]) {
      const other = await createParticipantFixture(h.db, options);
      const lead = !('approved' in options);
      const startRes = await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${other.mediaChannelId}`);
      const start = await json(startRes);
      expect(start.meta, JSON.stringify(options)).toMatchObject({ runnable: false, outcome: 'notActive' });
      expect(start.meta.messages.contactForm).toContain('not enrolling');
      expect(startRes.headers.get(TOKEN_HEADER) !== null, JSON.stringify(options)).toBe(lead);
      expect(typeof start.meta.submissionId === 'string').toBe(lead);
      const res = await h.request('POST', '/api/o-forms/o-form-submissions', {
        body: { data: { type: 'o-form-submissions', attributes: { oFormId: other.oFormId, mediaChannelId: other.mediaChannelId } } },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get(TOKEN_HEADER) !== null).toBe(lead);
      const refused = await json(res);
      expect(refused).toMatchObject({ data: null, meta: { outcome: 'notActive' } });
      expect(typeof refused.meta.submissionId === 'string').toBe(lead);
      // Made at notActive and ended, never started: no page entry, no start, no possible retake.
      const made = await h.db.select().from(oFormSubmissions).where(eq(oFormSubmissions.oFormId, other.oFormId));
      expect(made.map((s) => String(s.id)).sort()).toEqual(lead ? [start.meta.submissionId, refused.meta.submissionId].sort() : []);
      for (const s of made) {
        expect(s).toMatchObject({ outcome: 'notActive', startedAt: null, clientMatch: null, possibleRetake: false, mediaChannelId: other.mediaChannelId });
        expect(s.finishedAt).not.toBeNull();
        expect(await h.db.select().from(oFormContainerEntries).where(eq(oFormContainerEntries.submissionId, s.id))).toEqual([]);
      }
    }
  });

  it('answers notActive and stores nothing where the screener asks no contact fields (no lead form to offer)', async () => {
    const other = await createParticipantFixture(h.db, { channelActive: false });
    await h.db.delete(contactFieldScreeners).where(eq(contactFieldScreeners.screenerId, other.screenerId));
    const startRes = await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${other.mediaChannelId}`);
    expect(startRes.headers.get(TOKEN_HEADER)).toBeNull();
    expect((await json(startRes)).meta.submissionId).toBeUndefined();
    const res = await h.request('POST', '/api/o-forms/o-form-submissions', {
      body: { data: { type: 'o-form-submissions', attributes: { oFormId: other.oFormId, mediaChannelId: other.mediaChannelId } } },
    });
    expect(res.headers.get(TOKEN_HEADER)).toBeNull();
    expect(await json(res)).toEqual({ data: null, meta: expect.objectContaining({ outcome: 'notActive' }) });
    expect(await h.db.select().from(oFormSubmissions).where(eq(oFormSubmissions.oFormId, other.oFormId))).toHaveLength(0);
  });

  it("answers notActive for a channel of another screener than the survey's", async () => {
    const other = await createParticipantFixture(h.db);
    const res = await h.request('POST', '/api/o-forms/o-form-submissions', {
      body: { data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: other.mediaChannelId } } },
    });
    expect(await json(res)).toMatchObject({ data: null, meta: { outcome: 'notActive' } });
  });

  it('refuses unknown ids with 404/422 and malformed ones with 400', async () => {
    expect((await h.request('GET', '/api/o-forms/participant-start?mediaChannelId=999999')).status).toBe(404);
    expect((await h.request('GET', '/api/o-forms/participant-start?mediaChannelId=abc')).status).toBe(400);
    expect((await h.request('GET', '/api/o-forms/participant-start')).status).toBe(400);
    const res = await h.request('POST', '/api/o-forms/o-form-submissions', { body: { data: { type: 'o-form-submissions', attributes: { oFormId: 999999 } } } });
    expect(res.status).toBe(422);
    expect((await json(res)).errors[0].source.pointer).toBe('/data/attributes/oFormId');
  });

  it('serves pages of approved active surveys only (staff see their own unapproved ones)', async () => {
    const first = await h.request('GET', `/api/o-forms/o-form-containers?oFormId=${f.oFormId}&type=firstContainerPerForm&include=oFormFields`);
    expect(first.status).toBe(200);
    const body = await json(first);
    expect(body.data.attributes.identity).toBe('p1');
    expect(body.included.map((r: { attributes: { identity: string } }) => r.attributes.identity)).toEqual(['q_choice']);
    const p3 = await json(await h.request('GET', `/api/o-forms/o-form-containers?oFormId=${f.oFormId}&identity=p3`));
    expect(p3.included.map((r: { attributes: { identity: string } }) => r.attributes.identity)).toEqual(['q_zip', 'q_conditions']);
    const draft = await createParticipantFixture(h.db, { approved: false });
    const path = `/api/o-forms/o-form-containers?oFormId=${draft.oFormId}&type=firstContainerPerForm`;
    expect((await h.request('GET', path)).status).toBe(404);
    expect((await h.request('GET', path, { token: await h.token() })).status).toBe(200);
  });
});

describe('the submission token', () => {
  it("is required, with the SPEC's messages", async () => {
    const { submissionId, firstEntryId } = await startSubmission(h, f);
    const cases: [string, string, unknown, string][] = [
      ['GET', `/api/o-forms/o-form-container-entries/${firstEntryId}?include=oFormFieldEntries`, undefined, MISSING_TOKEN.read],
      ['POST', '/api/o-forms/o-form-container-entries', entryBody(f.pages.p2.id, submissionId), MISSING_TOKEN.createEntry],
      ['PATCH', `/api/o-forms/o-form-submission-page/${firstEntryId}`, { data: { attributes: { answers: { q_choice: 'yes' } } } }, MISSING_TOKEN.read],
      ['PATCH', `/api/o-forms/o-form-submission-sanitization/${submissionId}`, { data: { attributes: { pageIds: [] } } }, MISSING_TOKEN.read],
      ['GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, undefined, MISSING_TOKEN.read],
      [
        'POST',
        '/api/o-forms/o-form-page-metrics',
        { data: { attributes: { start: new Date().toISOString(), identity: 'p1', oFormSubmissionId: Number(submissionId) } } },
        MISSING_TOKEN.metrics,
      ],
    ];
    for (const [method, path, body, detail] of cases) {
      const res = await h.request(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await json(res)).errors[0].detail).toBe(detail);
    }
    const noId = await h.request('POST', '/api/o-forms/o-form-page-metrics', {
      headers: withToken('x'.repeat(43)),
      body: { data: { attributes: { identity: 'p1' } } },
    });
    expect(noId.status).toBe(401);
    expect((await json(noId)).errors[0].detail).toBe(MISSING_TOKEN.metrics);
  });

  it("opens its own submission only: another submission's id or entry is 404", async () => {
    const mine = await startSubmission(h, f);
    const theirs = await startSubmission(h, f);
    const headers = withToken(mine.token);
    expect((await h.request('GET', `/api/o-forms/o-form-container-entries/${theirs.firstEntryId}`, { headers })).status).toBe(404);
    expect((await h.request('GET', `/api/o-forms/o-form-container-entries/${mine.firstEntryId}`, { headers })).status).toBe(200);
    expect((await h.request('GET', `/api/o-forms/o-form-submission-qualification/${theirs.submissionId}`, { headers })).status).toBe(404);
    expect((await h.request('POST', '/api/o-forms/o-form-container-entries', { headers, body: entryBody(f.pages.p2.id, theirs.submissionId) })).status).toBe(
      404,
    );
    expect((await answerPage(h, mine.token, theirs.firstEntryId, { q_choice: 'yes' })).status).toBe(404);
    const sanitize = await h.request('PATCH', `/api/o-forms/o-form-submission-sanitization/${theirs.submissionId}`, {
      headers,
      body: { data: { attributes: { pageIds: [] } } },
    });
    expect(sanitize.status).toBe(404);
    expect((await h.request('GET', `/api/o-forms/o-form-submission-qualification/${mine.submissionId}`, { headers: withToken('garbage') })).status).toBe(404);
  });
});

describe('answers and branching', () => {
  it('stores nothing for invalid answers and names each field', async () => {
    const { submissionId, token, firstEntryId } = await startSubmission(h, f);
    const p1 = await answerPage(h, token, firstEntryId, { q_choice: 'yes' });
    const entry = p1.meta.nextContainerEntryId!;
    const res = await answerPage(h, token, entry, { q_dob: '31/02/1980', q_text: 'x'.repeat(21) });
    expect(res.status).toBe(422);
    expect(res.meta).toEqual({ success: false, errors: { q_dob: 'Must match format mm/dd/yyyy.', q_text: 'Maximum 20 characters.' } });
    const missing = await answerPage(h, token, entry, { q_text: 'fine' });
    expect(missing.meta.errors).toEqual({ q_dob: 'This field is required.' });
    const notAnOption = await answerPage(h, token, firstEntryId, { q_choice: 'maybe' });
    expect(notAnOption.meta.errors).toEqual({ q_choice: 'Choose one of the options.' });
    // Only page 1's valid answer is stored.
    expect((await answersOf(submissionId)).map((a) => a.fieldId)).toEqual([f.fields.q_choice.id]);
  });

  it("refuses a birth date after the server's today and stores nothing", async () => {
    h.clock.set('2027-06-15T12:00:00Z');
    try {
      const { submissionId, token, firstEntryId } = await startSubmission(h, f);
      const p1 = await answerPage(h, token, firstEntryId, { q_choice: 'yes' });
      const entry = p1.meta.nextContainerEntryId!;
      for (const future of ['2999-01-01', '2027-06-17']) {
        const res = await answerPage(h, token, entry, { q_dob: future });
        expect(res.status).toBe(422);
        expect(res.meta).toEqual({ success: false, errors: { q_dob: 'A date of birth cannot be in the future.' } });
      }
      expect((await answersOf(submissionId)).map((a) => a.fieldId)).toEqual([f.fields.q_choice.id]);
      expect((await answerPage(h, token, entry, { q_dob: '1990-06-15' })).status).toBe(200);
    } finally {
      h.clock.release();
    }
  });

  it("answers problems in the participant's language", async () => {
    const { token, firstEntryId } = await startSubmission(h, f, { language: 'es' });
    const res = await answerPage(h, token, firstEntryId, {});
    expect(res.meta.errors).toEqual({ q_choice: 'Este campo es obligatorio.' });
  });

  it('follows transitions: next page by order, a jump to a later page, and the end', async () => {
    const next = await startSubmission(h, f);
    const toP2 = await answerPage(h, next.token, next.firstEntryId, { q_choice: 'yes' });
    expect(toP2.meta).toMatchObject({ success: true, nextContainerIdentity: 'p2' });
    expect(toP2.meta.nextContainerEntryId).toMatch(/^\d+$/);
    const entry = await rowWithId(h.db.select().from(oFormContainerEntries), oFormContainerEntries.id, Number(toP2.meta.nextContainerEntryId));
    expect(entry).toMatchObject({ containerId: f.pages.p2.id, submissionId: Number(next.submissionId) });

    const jump = await startSubmission(h, f);
    expect((await answerPage(h, jump.token, jump.firstEntryId, { q_choice: 'skip' })).meta.nextContainerIdentity).toBe('p3');

    const stop = await startSubmission(h, f);
    expect((await answerPage(h, stop.token, stop.firstEntryId, { q_choice: 'stop' })).meta).toMatchObject({
      nextContainerIdentity: null,
      nextContainerEntryId: null,
    });

    const last = await answerPage(h, jump.token, (await answerPage(h, jump.token, jump.firstEntryId, { q_choice: 'skip' })).meta.nextContainerEntryId!, {
      q_zip: '10001',
    });
    expect(last.meta).toMatchObject({ success: true, nextContainerIdentity: null, nextContainerEntryId: null });
  });

  it("answers the next page's document with the save, as the containers route does, without who an option disqualifies", async () => {
    const { token, firstEntryId } = await startSubmission(h, f);
    const res = await h.request('PATCH', `/api/o-forms/o-form-submission-page/${firstEntryId}`, {
      headers: withToken(token),
      body: { data: { type: 'o-form-submission-pages', id: firstEntryId, attributes: { answers: { q_choice: 'yes' } } } },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(() => checkParticipantAnswer('pageSaved', 200, body)).not.toThrow();
    const page = await h.request('GET', `/api/o-forms/o-form-containers?oFormId=${f.oFormId}&identity=p2&include=oFormFields`);
    expect(body.meta.nextPage).toEqual(await json(page));
    expect(body.meta.nextPage.included.map((r: { attributes: { identity: string } }) => r.attributes.identity)).toEqual(['q_dob', 'q_text']);
    // The page's title with its translations: the widget shows the participant's language's.
    expect(body.meta.nextPage.data.attributes).toMatchObject({ title: 'Page 2', translations: { es: { title: 'Página 2' } } });

    // The last page leads to the end: no page to answer.
    const p2 = await answerPage(h, token, body.meta.nextContainerEntryId, { q_dob: '1980-06-15' });
    const p3 = await h.request('PATCH', `/api/o-forms/o-form-submission-page/${p2.meta.nextContainerEntryId}`, {
      headers: withToken(token),
      body: { data: { type: 'o-form-submission-pages', attributes: { answers: { q_zip: '10001' } } } },
    });
    expect((await json(p3)).meta).toMatchObject({ nextContainerIdentity: null, nextPage: null });

    // What disqualifies stays on the server, in the save's answer as in the containers route's.
    const fx = await fixtureDisqualifyingConditions();
    const start = await startSubmission(h, fx);
    const saved = await json(
      await h.request('PATCH', `/api/o-forms/o-form-submission-page/${start.firstEntryId}`, {
        headers: withToken(start.token),
        body: { data: { type: 'o-form-submission-pages', attributes: { answers: { q_choice: 'skip' } } } },
      }),
    );
    expect(saved.meta.nextPage.included.map((r: { attributes: { identity: string } }) => r.attributes.identity)).toEqual(['q_zip', 'q_conditions']);
    expect(JSON.stringify(saved)).not.toContain('disqualifiedFor');
    expect(JSON.stringify(saved)).not.toMatch(/"isDisqualified":true/);
  });

  it("keeps a child container's answers on the child entry of the page entry", async () => {
    const fx = await createParticipantFixture(h.db);
    const child = await addChildContainer(fx, fx.pages.p2.id, 'p2-child');
    await h.db.insert(oFormFields).values({
      identity: 'q_child',
      containerId: child!.id,
      title: 'Child question',
      type: 'text',
      displayOrder: 1,
      configuration: { required: true, options: [] },
    });
    const s = await startSubmission(h, fx);
    const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
    const p2Entry = p1.meta.nextContainerEntryId!;
    const page = await json(await h.request('GET', `/api/o-forms/o-form-containers?oFormId=${fx.oFormId}&identity=p2`));
    expect(
      page.included.filter((r: { type: string }) => r.type === 'o-form-fields').map((r: { attributes: { identity: string } }) => r.attributes.identity),
    ).toEqual(['q_dob', 'q_text', 'q_child']);
    expect((await answerPage(h, s.token, p2Entry, { q_dob: '1980-01-01' })).meta.errors).toEqual({ q_child: 'This field is required.' });
    expect((await answerPage(h, s.token, p2Entry, { q_dob: '1980-01-01', q_child: 'inside' })).meta.success).toBe(true);
    const entry = await json(
      await h.request('GET', `/api/o-forms/o-form-container-entries/${p2Entry}?include=oFormFieldEntries`, { headers: withToken(s.token) }),
    );
    expect(entry.meta.answers).toEqual({ q_dob: '1980-01-01', q_child: 'inside' });
    const childEntryId = entry.data.relationships.childEntries.data[0].id;
    expect(
      entry.included.find((r: { attributes: { oFormFieldIdentity: string } }) => r.attributes.oFormFieldIdentity === 'q_child').attributes.containerEntryId,
    ).toBe(Number(childEntryId));
    // A child container's entry is made under its page's entry only.
    const wrongParent = await h.request('POST', '/api/o-forms/o-form-container-entries', {
      headers: withToken(s.token),
      body: entryBody(child!.id, s.submissionId, s.firstEntryId),
    });
    expect(wrongParent.status).toBe(422);
    const rightParent = await h.request('POST', '/api/o-forms/o-form-container-entries', {
      headers: withToken(s.token),
      body: entryBody(child!.id, s.submissionId, p2Entry),
    });
    expect(rightParent.status).toBe(201);
  });

  it('reads an entry back with its answers', async () => {
    const { token, firstEntryId } = await startSubmission(h, f);
    await answerPage(h, token, firstEntryId, { q_choice: 'yes' });
    const res = await h.request('GET', `/api/o-forms/o-form-container-entries/${firstEntryId}?include=oFormFieldEntries`, { headers: withToken(token) });
    const body = await json(res);
    expect(body.meta.answers).toEqual({ q_choice: 'yes' });
    expect(body.included[0].attributes).toMatchObject({ fieldValue: 'yes', oFormFieldIdentity: 'q_choice' });
  });

  it("replaces a page's answers when it is answered again, once per question even at the same moment", async () => {
    const { submissionId, token, firstEntryId } = await startSubmission(h, f);
    const p2 = (await answerPage(h, token, firstEntryId, { q_choice: 'yes' })).meta.nextContainerEntryId!;
    expect((await answerPage(h, token, p2, { q_dob: '1980-06-15', q_text: 'hello' })).meta.success).toBe(true);
    expect((await answerPage(h, token, p2, { q_dob: '1970-02-02' })).meta.success).toBe(true);
    const readBack = async () =>
      (await json(await h.request('GET', `/api/o-forms/o-form-container-entries/${p2}`, { headers: withToken(token) }))).meta.answers;
    expect(await readBack()).toEqual({ q_dob: '1970-02-02' });

    const both = await Promise.all([
      answerPage(h, token, p2, { q_dob: '1990-01-01', q_text: 'first' }),
      answerPage(h, token, p2, { q_dob: '1991-01-01', q_text: 'second' }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const stored = (await answersOf(submissionId)).filter((a) => a.fieldId !== f.fields.q_choice.id);
    expect(stored.map((a) => a.fieldId).sort()).toEqual([f.fields.q_dob.id, f.fields.q_text.id].sort());
    expect([
      ['1990-01-01', 'first'],
      ['1991-01-01', 'second'],
    ]).toContainEqual([stored.find((a) => a.fieldId === f.fields.q_dob.id)!.value, stored.find((a) => a.fieldId === f.fields.q_text.id)!.value]);
  });

  it('refuses an answer or a page entry to a completed run (404: its token opens only the outcome) and changes nothing', async () => {
    const { submissionId, token, firstEntryId } = await startSubmission(h, f);
    await answerPage(h, token, firstEntryId, { q_choice: 'yes' });
    await h.db
      .update(oFormSubmissions)
      .set({ status: 'completed' })
      .where(eq(oFormSubmissions.id, Number(submissionId)));
    const entriesBefore = await entriesOf(submissionId);
    const res = await answerPage(h, token, firstEntryId, { q_choice: 'skip' });
    expect(res.status).toBe(404);
    // Nor a new page entry, though this process made the submission and kept it as in progress.
    const entry = await h.request('POST', '/api/o-forms/o-form-container-entries', { headers: withToken(token), body: entryBody(f.pages.p1.id, submissionId) });
    expect(entry.status).toBe(404);
    expect((await answersOf(submissionId)).map((a) => a.value)).toEqual(['yes']);
    expect(await entriesOf(submissionId)).toEqual(entriesBefore);
    // The statement re-checks under the submission's lock (a run completed after the entry was read).
    const saved = await savePage(h.db, {
      submissionId: Number(submissionId),
      entryIds: [Number(firstEntryId)],
      answers: [{ entryId: Number(firstEntryId), fieldId: f.fields.q_choice.id, value: 'skip', sealed: null }],
      next: { pageId: f.pages.p3.id, childContainerIds: [] },
      limits: { windowStart: new Date(), checks: [] },
    });
    expect(saved).toEqual({ status: 'closed' });
    expect((await answersOf(submissionId)).map((a) => a.value)).toEqual(['yes']);
    expect(await entriesOf(submissionId)).toEqual(entriesBefore);
  });

  it('previews where answers lead without writing anything', async () => {
    const before = await h.db.select().from(oFormFieldEntries);
    const res = await h.request('PATCH', `/api/o-forms/o-form-submission-page-preview/${f.pages.p1.id}`, {
      body: { data: { attributes: { answers: { q_choice: 'skip' } } } },
    });
    expect(res.status).toBe(200);
    const previewed = await json(res);
    expect(previewed.meta).toMatchObject({ success: true, nextContainerIdentity: 'p3', nextContainerEntryId: null, nextOFormIdentity: null });
    expect(previewed.meta.nextPage.data).toMatchObject({ type: 'o-form-containers', id: String(f.pages.p3.id) });
    const bad = await h.request('PATCH', `/api/o-forms/o-form-submission-page-preview/${f.pages.p2.id}`, { body: { data: { attributes: { answers: {} } } } });
    expect(bad.status).toBe(422);
    expect(await h.db.select().from(oFormFieldEntries)).toHaveLength(before.length);
  });

  it('sanitizes the answers of the pages left behind, and only of its own submission', async () => {
    const run = await startSubmission(h, f);
    const p1 = await answerPage(h, run.token, run.firstEntryId, { q_choice: 'yes' });
    const p2Entry = p1.meta.nextContainerEntryId!;
    await answerPage(h, run.token, p2Entry, { q_dob: '1980-01-01' });
    expect(await answersOf(run.submissionId)).toHaveLength(2);
    const other = await startSubmission(h, f);
    const refused = await h.request('PATCH', `/api/o-forms/o-form-submission-sanitization/${run.submissionId}`, {
      headers: withToken(run.token),
      body: { data: { attributes: { pageIds: [p2Entry, other.firstEntryId] } } },
    });
    expect((await json(refused)).meta.isSanitizeSuccess).toBe(false);
    expect(await answersOf(run.submissionId)).toHaveLength(2);
    const res = await h.request('PATCH', `/api/o-forms/o-form-submission-sanitization/${run.submissionId}`, {
      headers: withToken(run.token),
      body: { data: { attributes: { pageIds: [p2Entry] } } },
    });
    expect((await json(res)).meta.isSanitizeSuccess).toBe(true);
    expect((await answersOf(run.submissionId)).map((a) => a.fieldId)).toEqual([f.fields.q_choice.id]);
  });

  it('records page timing', async () => {
    const run = await startSubmission(h, f);
    const res = await h.request('POST', '/api/o-forms/o-form-page-metrics', {
      headers: withToken(run.token),
      body: {
        data: {
          type: 'o-form-page-metrics',
          attributes: {
            start: '2026-01-01T10:00:00Z',
            stop: '2026-01-01T10:00:42Z',
            metricType: 'page',
            identity: 'p1',
            oFormSubmissionId: Number(run.submissionId),
          },
        },
      },
    });
    expect(res.status).toBe(201);
    expect((await json(res)).data.attributes).toMatchObject({ metricType: 'page', identity: 'p1', oFormSubmissionId: Number(run.submissionId) });
    const rows = await h.db
      .select()
      .from(oFormPageMetrics)
      .where(eq(oFormPageMetrics.submissionId, Number(run.submissionId)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.type).toBe('page');
    expect(rows[0]!.stop!.getTime() - rows[0]!.start.getTime()).toBe(42_000);
    const backwards = await h.request('POST', '/api/o-forms/o-form-page-metrics', {
      headers: withToken(run.token),
      body: {
        data: { attributes: { start: '2026-01-01T10:00:00Z', stop: '2026-01-01T09:00:00Z', identity: 'p1', oFormSubmissionId: Number(run.submissionId) } },
      },
    });
    expect(backwards.status).toBe(422);
  });
});

describe('qualification', () => {
  // Ages are counted on the day the server's clock says: 15 June 2027 for this block.
  beforeAll(() => h.clock.set('2027-06-15T12:00:00Z'));
  afterAll(() => h.clock.release());
  const adultDob = '1980-06-15';
  const run = async (p1: string, p2?: Record<string, unknown>) => {
    const s = await startSubmission(h, f);
    const first = await answerPage(h, s.token, s.firstEntryId, { q_choice: p1 });
    let next = first.meta.nextContainerEntryId;
    if (p2 && next && first.meta.nextContainerIdentity === 'p2') next = (await answerPage(h, s.token, next, p2)).meta.nextContainerEntryId;
    if (next) await answerPage(h, s.token, next, { q_zip: '10001' });
    return s;
  };

  it('qualifies for every engagement when nothing disqualifies', async () => {
    const s = await run('yes', { q_dob: adultDob });
    const q = await qualification(s.submissionId, s.token);
    expect(q).toMatchObject({ isQualified: true, outcome: 'qualified', engagementIds: f.engagementIds.map(String) });
    expect(q.messages.contactForm).toBe('You may qualify!');
  });

  it('disqualifies for all engagements through an option marked isDisqualified', async () => {
    const s = await run('no', { q_dob: adultDob });
    const q = await qualification(s.submissionId, s.token);
    expect(q).toMatchObject({ isQualified: false, outcome: 'notQualified', engagementIds: [] });
    // The screener's message, sanitized: the script is gone, the markup kept.
    expect(q.messages.contactForm).toBe('<p>Not a match <strong>this time</strong>.</p>');
  });

  it('disqualifies for one engagement only through disqualifiedFor', async () => {
    const s = await run('no_e2', { q_dob: adultDob });
    expect(await qualification(s.submissionId, s.token)).toMatchObject({ isQualified: true, engagementIds: [String(f.engagementIds[0])] });
  });

  it('disqualifies through every chosen value of a multiple-choice answer, not only its first', async () => {
    const other = await fixtureDisqualifyingConditions();
    const judged = async (chosen: string[]) => {
      const s = await startSubmission(h, other);
      const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'skip' });
      expect(p1.meta.nextContainerIdentity).toBe('p3');
      const p3 = await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: chosen });
      expect(p3.status).toBe(200);
      return qualification(s.submissionId, s.token);
    };
    expect(await judged(['a'])).toMatchObject({ isQualified: true, engagementIds: other.engagementIds.map(String) });
    expect(await judged(['a', 'none'])).toMatchObject({ isQualified: false, outcome: 'notQualified', engagementIds: [] });
    expect(await judged(['a', 'b'])).toMatchObject({ isQualified: true, engagementIds: [String(other.engagementIds[0])] });
    expect(await judged(['none', 'a'])).toMatchObject({ isQualified: false, outcome: 'notQualified' });
  });

  it('qualifies ages 18 to 75 inclusive, counting a birthday only once it has come this year', async () => {
    // The fixture's range is 18..75; on 15 June 2027:
    const cases: [string, boolean][] = [
      ['2009-06-16', false], // 17: turns 18 tomorrow
      ['2009-06-15', true], // 18 today
      ['2009-01-01', true], // 18 since January
      ['1952-06-16', true], // 74: turns 75 tomorrow
      ['1952-06-15', true], // 75 today
      ['1951-06-16', true], // 75: turns 76 tomorrow
      ['1951-06-15', false], // 76 today
      ['2017-06-15', false], // 10
    ];
    for (const [dob, qualified] of cases) {
      const s = await run('yes', { q_dob: dob });
      expect(await qualification(s.submissionId, s.token), dob).toMatchObject(
        qualified ? { isQualified: true, outcome: 'qualified' } : { isQualified: false, outcome: 'notQualified' },
      );
    }
  });

  it('ignores answers on pages no longer on the path', async () => {
    // A child's birthday on page 2, then back to page 1 and a jump past page 2.
    const s = await startSubmission(h, f);
    const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
    await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: '2022-06-15' });
    const again = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'skip' });
    await answerPage(h, s.token, again.meta.nextContainerEntryId!, { q_zip: '10001' });
    expect((await qualification(s.submissionId, s.token)).isQualified).toBe(true);
  });

  it('answers notActive once the survey is switched off, in Spanish for a Spanish run', async () => {
    const other = await createParticipantFixture(h.db);
    const s = await runQualified(h, other, { language: 'es' });
    await h.db.update(oForms).set({ isActive: false }).where(eq(oForms.id, other.oFormId));
    const q = await qualification(s.submissionId, s.token);
    expect(q).toMatchObject({ isQualified: false, outcome: 'notActive' });
    expect(q.messages.contactForm).toContain('no está inscribiendo');
  });

  it('stores the outcome and counts a qualified submission once on its channel', async () => {
    const other = await createParticipantFixture(h.db);
    const s = await runQualified(h, other);
    await qualification(s.submissionId, s.token);
    await qualification(s.submissionId, s.token);
    const row = await submissionRow(h, s.submissionId);
    expect(row).toMatchObject({ outcome: 'qualified', isQualified: true });
    expect((await figuresOf(other.mediaChannelId)).submissionsQualified).toBe(1);
    const counts = await Promise.all([1, 2, 3].map(() => runQualified(h, other)));
    await Promise.all(counts.map((c) => qualification(c.submissionId, c.token)));
    expect(await figuresOf(other.mediaChannelId)).toMatchObject({ submissionsQualified: 4, submissionsStarted: 4 });
  });
});

describe('CORS', () => {
  const preflight = (path: string, origin: string) =>
    h.request('OPTIONS', path, {
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': `content-type, ${TOKEN_HEADER.toLowerCase()}` },
    });

  it("allows the channel's own domain, on any scheme and port, and exposes the token header", async () => {
    const path = `/api/o-forms/o-form-submissions?mediaChannelId=${f.mediaChannelId}`;
    for (const origin of [`https://${f.domain}`, `http://${f.domain}:8080`]) {
      const res = await preflight(path, origin);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-headers')).toContain(TOKEN_HEADER);
    }
    const res = await h.request('POST', path, {
      headers: { Origin: `https://${f.domain}` },
      body: { data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: f.mediaChannelId } } },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe(`https://${f.domain}`);
    expect(res.headers.get('access-control-expose-headers')).toContain(TOKEN_HEADER);
  });

  it('refuses another origin: no CORS headers on the preflight, 403 on the call (readable there, naming the cause; it writes nothing)', async () => {
    const path = `/api/o-forms/o-form-submissions?mediaChannelId=${f.mediaChannelId}`;
    for (const origin of ['https://evil.example', `https://sub.${f.domain}`, `https://${f.domain}.evil.example`]) {
      const res = await preflight(path, origin);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
    const call = await h.request('POST', path, {
      headers: { Origin: 'https://evil.example' },
      body: { data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: f.mediaChannelId } } },
    });
    expect(call.status).toBe(403);
    expect(call.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    expect((await json(call)).errors[0].code).toBe('origin-not-allowed');
    expect(call.headers.get('survey-submission-token')).toBeNull();
    const noChannel = await preflight('/api/o-forms/o-form-submissions', `https://${f.domain}`);
    expect(noChannel.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("refuses a partner page acting for another channel's submission", async () => {
    const other = await createParticipantFixture(h.db, { domain: 'other-partner.example' });
    const s = await startSubmission(h, f);
    const res = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${s.submissionId}?mediaChannelId=${other.mediaChannelId}`, {
      headers: { ...withToken(s.token), Origin: 'https://other-partner.example' },
    });
    expect(res.status).toBe(403);
    const own = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${s.submissionId}?mediaChannelId=${f.mediaChannelId}`, {
      headers: { ...withToken(s.token), Origin: `https://${f.domain}` },
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(`https://${f.domain}`);
  });

  it("answers the product's own origin", async () => {
    const own = new URL('http://localhost/').origin;
    const res = await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${f.mediaChannelId}`, { headers: { Origin: own } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(own);
  });
});

describe('rate limits', () => {
  afterEach(() => h.clock.release());
  it('answers 429 with Retry-After over the per-channel limits, and readable CORS headers', async () => {
    // Every call in the minute-long window that began at 10:00:00.
    h.clock.set('2027-09-01T10:00:45Z');
    // A second app on the same database, with small limits (the shared harness has the defaults).
    const app = secondApp(h, { PARTICIPANT_LIMIT_WINDOW_SECONDS: '60', PARTICIPANT_SUBMISSIONS_PER_CHANNEL: '2', PARTICIPANT_PAGES_PER_CHANNEL: '3' });
    const limited = {
      request: (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
        Promise.resolve(
          app.request(path, {
            method,
            headers: { 'Content-Type': 'application/vnd.api+json', ...options.headers },
            body: options.body === undefined ? undefined : JSON.stringify(options.body),
          }),
        ),
    };
    const fx = await createParticipantFixture(h.db);
    const s = await startSubmission(limited, fx);
    await startSubmission(limited, fx);
    const res = await limited.request('POST', `/api/o-forms/o-form-submissions?mediaChannelId=${fx.mediaChannelId}`, {
      headers: { Origin: `https://${fx.domain}` },
      body: { data: { type: 'o-form-submissions', attributes: { oFormId: fx.oFormId, mediaChannelId: fx.mediaChannelId } } },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('15');
    expect(res.headers.get('access-control-allow-origin')).toBe(`https://${fx.domain}`);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await answerPage(limited, s.token, s.firstEntryId, { q_choice: 'stop' })).status);
    const entriesBefore = await entriesOf(s.submissionId);
    // Over the limit a valid answer (counted inside its save) writes nothing, and an invalid one is a 429 too.
    statuses.push((await answerPage(limited, s.token, s.firstEntryId, { q_choice: 'yes' })).status);
    statuses.push((await answerPage(limited, s.token, s.firstEntryId, { q_choice: 'maybe' })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await answersOf(s.submissionId)).map((a) => a.value)).toEqual(['stop']);
    expect(await entriesOf(s.submissionId)).toEqual(entriesBefore);
    // Another channel is counted on its own.
    expect((await startSubmission(limited, f)).token).toBeTruthy();
    // The next window counts afresh.
    h.clock.set('2027-09-01T10:01:00Z');
    expect((await answerPage(limited, s.token, s.firstEntryId, { q_choice: 'yes' })).status).toBe(200);
  });

  it("counts a client address's views of a channel up to its limit per window", async () => {
    h.clock.set('2027-09-03T10:00:00Z');
    const app = secondApp(h, { PARTICIPANT_VIEWS_PER_ADDRESS: '2' });
    const fx = await createParticipantFixture(h.db);
    const from = (address: string) => ({ incoming: { socket: { remoteAddress: address, remotePort: 5000, remoteFamily: 'IPv4' } } });
    const view = async (address: string) =>
      (
        await app.request(
          `/api/o-forms/participant-views?mediaChannelId=${fx.mediaChannelId}`,
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/vnd.api+json' },
            body: JSON.stringify({ data: { type: 'participant-views', attributes: { mediaChannelId: fx.mediaChannelId } } }),
          },
          from(address),
        )
      ).status;
    expect([await view('203.0.113.9'), await view('203.0.113.9'), await view('203.0.113.9'), await view('203.0.113.10')]).toEqual([202, 202, 429, 202]);
    expect((await figuresOf(fx.mediaChannelId)).views).toBe(3);
  });

  it('limits submissions per client address too', async () => {
    h.clock.set('2027-09-02T10:00:00Z');
    const app = secondApp(h, { PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '1' });
    // The connection's peer, as @hono/node-server hands it over.
    const from = (address: string) => ({ incoming: { socket: { remoteAddress: address, remotePort: 5000, remoteFamily: 'IPv4' } } });
    const create = (address: string) =>
      app.request(
        '/api/o-forms/o-form-submissions',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify({ data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: f.mediaChannelId } } }),
        },
        from(address),
      );
    const started = async () => (await figuresOf(f.mediaChannelId)).submissionsStarted;
    const submissions = async () =>
      (await h.db.select({ id: oFormSubmissions.id }).from(oFormSubmissions).where(eq(oFormSubmissions.oFormId, f.oFormId))).length;
    expect((await create('203.0.113.7')).status).toBe(201);
    const before = { started: await started(), submissions: await submissions() };
    const refused = await create('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Over the limit nothing is made and nothing counted as started.
    expect({ started: await started(), submissions: await submissions() }).toEqual(before);
    expect((await create('203.0.113.8')).status).toBe(201);
  });

  it('starts a submission in two statements with the rate limits on, with or without a channel', async () => {
    const fx = await createParticipantFixture(h.db);
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-test-data', CONTACT_MATCH_KEY: 'ab'.repeat(32) });
    expect(config.participantLimits.submissionsPerAddress).toBeGreaterThan(0);
    expect(config.participantLimits.submissionsPerChannel).toBeGreaterThan(0);
    const app = createApp({ db: h.db, config, jwtSecret: h.jwtSecret, log: createLogger('silent'), clock: h.clock });
    const create = (mediaChannelId?: number) =>
      app.request(
        '/api/o-forms/o-form-submissions',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify({ data: { type: 'o-form-submissions', attributes: { oFormId: fx.oFormId, mediaChannelId } } }),
        },
        { incoming: { socket: { remoteAddress: '198.51.100.4', remotePort: 5000, remoteFamily: 'IPv4' } } },
      );
    h.takeStatements();
    const before = (await figuresOf(fx.mediaChannelId)).submissionsStarted;
    h.takeStatements();
    expect((await create(fx.mediaChannelId)).status).toBe(201);
    expect(h.takeStatements()).toHaveLength(2);
    // Counted once a page is saved, not by the start.
    expect((await figuresOf(fx.mediaChannelId)).submissionsStarted).toBe(before);
    h.takeStatements();
    expect((await create()).status).toBe(201);
    expect(h.takeStatements()).toHaveLength(2);
    const rows = await h.db.select().from(oFormSubmissions).where(eq(oFormSubmissions.oFormId, fx.oFormId));
    expect(rows.map((r) => r.mediaChannelId).sort()).toEqual([fx.mediaChannelId, null]);
    // Both calls were counted against the address's limit, under its keyed hash: the address is never stored.
    const hashed = contactMatcherOf({ config }).clientAddress('198.51.100.4')!;
    const hits = await h.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `participant:submissions:address:${hashed}`));
    expect(hits.reduce((n, r) => n + r.count, 0)).toBe(2);
    expect(hashed).not.toContain('198.51');
    const clear = await h.db.select().from(rateLimits).where(like(rateLimits.key, '%198.51.100.%'));
    expect(clear).toEqual([]);
  });
});

describe('ageOn', () => {
  it('counts whole years by the UTC date; a 29 February birthday comes on 1 March in other years', () => {
    expect(ageOn('2009-06-15', new Date('2027-06-14T23:59:59Z'))).toBe(17);
    expect(ageOn('2009-06-15', new Date('2027-06-15T00:00:00Z'))).toBe(18);
    expect(ageOn('2009-12-31', new Date('2027-01-01T00:00:00Z'))).toBe(17);
    expect(ageOn('2008-02-29', new Date('2027-02-28T23:59:59Z'))).toBe(18);
    expect(ageOn('2008-02-29', new Date('2027-03-01T00:00:00Z'))).toBe(19);
    expect(ageOn('2008-02-29', new Date('2028-02-29T00:00:00Z'))).toBe(20);
    expect(ageOn('2009-02-30', new Date('2027-06-15T00:00:00Z'))).toBeNull();
  });
});

describe('answer checks beyond the shared rules', () => {
  const field = (type: SurveyField['type'], options: string[] = []): SurveyField => ({
    id: 1,
    identity: 'q',
    containerId: 1,
    pageId: 1,
    title: 'Q',
    type,
    displayOrder: 1,
    configuration: {
      required: false,
      helperText: null,
      translations: {},
      options: options.map((value) => ({ label: value, value, translations: {}, isDisqualified: false, transition: null })),
    },
  });
  const TODAY = new Date('2026-03-01T12:00:00Z');
  it('takes only offered options, in the shape of the question', () => {
    expect(answerProblems([field('yes_no')], { q: 'yes' }, 'en', TODAY)).toEqual({});
    expect(answerProblems([field('yes_no')], { q: 'perhaps' }, 'en', TODAY)).toEqual({ q: 'Choose one of the options.' });
    expect(answerProblems([field('yes_no', ['si'])], { q: 'yes' }, 'es', TODAY)).toEqual({ q: 'Elija una de las opciones.' });
    expect(answerProblems([field('multiple', ['a', 'b'])], { q: ['a', 'b'] }, 'en', TODAY)).toEqual({});
    expect(answerProblems([field('multiple', ['a', 'b'])], { q: 'a' }, 'en', TODAY)).toEqual({ q: 'Choose one of the options.' });
    expect(answerProblems([field('single', ['a'])], { q: ['a'] }, 'en', TODAY)).toEqual({ q: 'Choose one of the options.' });
    expect(answerProblems([field('single', ['a'])], { q: null }, 'en', TODAY)).toEqual({});
  });
  it("refuses a birth date after the latest today on Earth, in the participant's language", () => {
    expect(answerProblems([field('dob')], { q: '2026-03-01' }, 'en', TODAY)).toEqual({});
    // Already 2 March at UTC+14 when it is noon of 1 March in UTC; 3 March is nowhere yet.
    expect(answerProblems([field('dob')], { q: '2026-03-02' }, 'en', TODAY)).toEqual({});
    expect(answerProblems([field('dob')], { q: '2026-03-03' }, 'en', TODAY)).toEqual({ q: 'A date of birth cannot be in the future.' });
    expect(answerProblems([field('dob')], { q: '2999-01-01' }, 'es', TODAY)).toEqual({ q: 'La fecha de nacimiento no puede ser futura.' });
  });
});

describe('outcome messages', () => {
  it("take the participant's language first — screener, then the survey's messages, then the defaults — then English", async () => {
    expect(await outcomeMessages(h.db, f.screenerId, 'notQualified', 'es_MX', f.oFormId)).toEqual({
      contactForm: '<p>No es adecuado <em>esta vez</em>.</p>',
      // No Spanish consent from the screener: the default Spanish text comes before the screener's English one.
      consent: DEFAULT_SURVEY_MESSAGES.not_qualified_consent.es,
    });
    await h.db.insert(oFormMessages).values({
      oFormIdentity: f.oFormIdentity,
      oFormVersionId: f.oFormId,
      messageType: 'no_trial_sites_contact_form',
      language: 'es',
      message: 'Sin centros <b onclick="x()">cerca</b>',
    });
    const noSites = await outcomeMessages(h.db, f.screenerId, 'noTrialSites', 'es', f.oFormId);
    expect(noSites.contactForm).toBe('Sin centros <b>cerca</b>');
    // A language nobody wrote falls back to English.
    expect((await outcomeMessages(h.db, f.screenerId, 'notQualified', 'fr', f.oFormId)).contactForm).toBe('<p>Not a match <strong>this time</strong>.</p>');
    expect((await outcomeMessages(h.db, null, 'completed', 'de', null)).contactForm).toBe(DEFAULT_SURVEY_MESSAGES.completed_contact_form.en);
  });
});

describe('the HTML sanitizer', () => {
  it('keeps the allowlist and drops everything else', () => {
    expect(sanitizeHtml('<p onclick="x()">Hi <b>there</b></p>')).toBe('<p>Hi <b>there</b></p>');
    expect(sanitizeHtml('<script>alert(1)</script>ok<style>p{}</style>')).toBe('ok');
    expect(sanitizeHtml('<img src=x onerror=alert(1)>text')).toBe('text');
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="jav&#x61;script:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="https://example.org/?a=1&b=2" style="x">x</a>')).toBe(
      '<a href="https://example.org/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('1 < 2 & 3 > 2 &amp; <!-- hidden --> "q"')).toBe('1 &lt; 2 &amp; 3 &gt; 2 &amp;  "q"');
    expect(sanitizeHtml('<svg><script>x</script></svg>after')).toBe('after');
    expect(sanitizeHtml('<p title="a>b">t</p>')).toBe('<p>t</p>');
  });
});

/**
 * The participant calls a browser sends without a CORS preflight: a POST whose body is JSON sent
 * as text/plain, the submission's token in the body's `meta.submissionToken` rather than in a
 * header. Every rule of the header form holds: the token opens its own submission only, the
 * channel's domain alone may call, the answers are checked and the rate limits count.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { SUBMISSION_TOKEN_HEADER, SUBMISSION_TOKEN_META } from '@core/participant/wire';
import { oFormContainerEntries, oFormPageMetrics } from '../../../server/db/schema';
import { MISSING_TOKEN } from '../../../server/participant/access';
import { answerPage, createParticipantFixture, runQualified, startSubmission, type ParticipantFixture } from '../../support/participantFixture';
import type { Harness } from '../harness';
import { secondApp, useParticipantServer } from '../participantServer';
import { rowsWhere } from '../rowsWhere';
import { storedAnswersOf } from '../storedAnswers';

let h: Harness;
let f: ParticipantFixture;
useParticipantServer((server) => ({ h, f } = server));

const PLAIN = 'text/plain;charset=UTF-8';

const answersOf = (submissionId: string) => storedAnswersOf(h.db, submissionId);

/** A call as the widget sends it from the partner's page: text/plain, the token (if any) in the body. */
function simple(
  app: { request: Harness['app']['request'] },
  path: string,
  body: object,
  token: string | null,
  fixture = f,
  origin = `https://${fixture.domain}`,
) {
  const sent = token === null ? body : { ...body, meta: { [SUBMISSION_TOKEN_META]: token } };
  return Promise.resolve(
    app.request(`${path}${path.includes('?') ? '&' : '?'}mediaChannelId=${fixture.mediaChannelId}`, {
      method: 'POST',
      headers: { 'Content-Type': PLAIN, Accept: 'application/vnd.api+json', Origin: origin },
      body: JSON.stringify(sent),
    }),
  );
}

const pageBody = (entryId: string, answers: Record<string, unknown>) => ({ data: { type: 'o-form-submission-pages', id: entryId, attributes: { answers } } });

describe('participant calls without a preflight', () => {
  it('starts a submission from a text/plain body and answers its token in the header', async () => {
    const res = await simple(
      h.app,
      '/api/o-forms/o-form-submissions',
      { data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: f.mediaChannelId, oFormContainerId: f.pages.p1.id } } },
      null,
    );
    expect(res.status).toBe(201);
    expect(res.headers.get(SUBMISSION_TOKEN_HEADER)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers.get('access-control-allow-origin')).toBe(`https://${f.domain}`);
    const body = (await res.json()) as { meta: { containerEntryId: string } };
    expect(body.meta.containerEntryId).toMatch(/^\d+$/);
  });

  it('saves a page by POST with the token in the body, as PATCH with the header does', async () => {
    const s = await startSubmission(h, f, { withFirstPage: true });
    const res = await simple(h.app, `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, pageBody(s.firstEntryId, { q_choice: 'yes' }), s.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(`https://${f.domain}`);
    const { meta } = (await res.json()) as {
      meta: { success: boolean; nextContainerIdentity: string; nextContainerEntryId: string; nextPage: { data: { id: string } } };
    };
    expect(meta).toMatchObject({ success: true, nextContainerIdentity: 'p2' });
    expect(meta.nextPage.data.id).toBe(String(f.pages.p2.id));
    const stored = await answersOf(s.submissionId);
    expect(stored).toHaveLength(1);

    // The next page's entry was made with the save; its answers are checked as ever (422, nothing stored).
    const refused = await simple(
      h.app,
      `/api/o-forms/o-form-submission-page/${meta.nextContainerEntryId}`,
      pageBody(meta.nextContainerEntryId, { q_dob: 'not a date' }),
      s.token,
    );
    expect(refused.status).toBe(422);
    const problems = (await refused.json()) as { meta: { success: boolean; errors: Record<string, string> } };
    expect(problems.meta.success).toBe(false);
    expect(Object.keys(problems.meta.errors)).toEqual(['q_dob']);
    expect(await answersOf(s.submissionId)).toHaveLength(1);
  });

  it("keeps the token's rules: none is a 401, another run's is a 404, writing nothing", async () => {
    const s = await startSubmission(h, f, { withFirstPage: true });
    const other = await startSubmission(h, f, { withFirstPage: true });
    const none = await simple(h.app, `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, pageBody(s.firstEntryId, { q_choice: 'yes' }), null);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toBe(MISSING_TOKEN.read);
    const wrong = await simple(h.app, `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, pageBody(s.firstEntryId, { q_choice: 'yes' }), other.token);
    expect(wrong.status).toBe(404);
    const malformed = await simple(
      h.app,
      `/api/o-forms/o-form-submission-page/${s.firstEntryId}`,
      { ...pageBody(s.firstEntryId, { q_choice: 'yes' }), meta: { [SUBMISSION_TOKEN_META]: 42 } },
      null,
    );
    expect(malformed.status).toBe(401);
    expect(await answersOf(s.submissionId)).toEqual([]);
  });

  it("refuses another site's page, a body that is not JSON and another media type", async () => {
    const s = await startSubmission(h, f, { withFirstPage: true });
    const path = `/api/o-forms/o-form-submission-page/${s.firstEntryId}`;
    const elsewhere = await simple(h.app, path, pageBody(s.firstEntryId, { q_choice: 'yes' }), s.token, f, 'https://evil.example');
    expect(elsewhere.status).toBe(403);
    const send = (type: string, body: string) =>
      Promise.resolve(
        h.app.request(`${path}?mediaChannelId=${f.mediaChannelId}`, {
          method: 'POST',
          headers: { 'Content-Type': type, Origin: `https://${f.domain}`, [SUBMISSION_TOKEN_HEADER]: s.token },
          body,
        }),
      );
    const broken = await send(PLAIN, '{"data":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toBe('The request body is not valid JSON.');
    expect((await send('text/html', JSON.stringify(pageBody(s.firstEntryId, { q_choice: 'yes' })))).status).toBe(415);
    expect(await answersOf(s.submissionId)).toEqual([]);
  });

  it('takes the token from the body for page entries and page timing too', async () => {
    const s = await startSubmission(h, f, { withFirstPage: true });
    await simple(h.app, `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, pageBody(s.firstEntryId, { q_choice: 'yes' }), s.token);
    const entry = await simple(
      h.app,
      '/api/o-forms/o-form-container-entries',
      { data: { type: 'o-form-container-entries', attributes: { oFormContainerId: f.pages.p2.id, oFormSubmissionId: Number(s.submissionId) } } },
      s.token,
    );
    expect(entry.status).toBe(201);
    const at = '2027-01-01T10:00:00.000Z';
    const metric = await simple(
      h.app,
      '/api/o-forms/o-form-page-metrics',
      {
        data: {
          type: 'o-form-page-metrics',
          attributes: { oFormSubmissionId: Number(s.submissionId), identity: 'p1', metricType: 'page', start: at, stop: at },
        },
      },
      s.token,
    );
    expect(metric.status).toBe(201);
    expect(await rowsWhere(h.db, oFormPageMetrics.submissionId, Number(s.submissionId))).toHaveLength(1);
    expect(
      (
        await h.db
          .select()
          .from(oFormContainerEntries)
          .where(eq(oFormContainerEntries.submissionId, Number(s.submissionId)))
      ).length,
    ).toBeGreaterThan(1);
  });

  it('answers the qualification to a POST with the token in the body, as to a GET with the header', async () => {
    const run = await runQualified(h, f);
    const none = await simple(h.app, `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, {}, null);
    expect(none.status).toBe(401);
    const res = await simple(h.app, `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, {}, run.token);
    expect(res.status).toBe(200);
    const { meta } = (await res.json()) as { meta: { isQualified: boolean; outcome: string } };
    expect(meta).toMatchObject({ isQualified: true, outcome: 'qualified' });
    const read = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, {
      headers: { [SUBMISSION_TOKEN_HEADER]: run.token },
    });
    expect(((await read.json()) as { meta: unknown }).meta).toEqual(
      ((await (await simple(h.app, `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, {}, run.token)).json()) as { meta: unknown }).meta,
    );
  });

  it('lets the browser keep a preflight for two hours for the calls that still need one', async () => {
    const res = await h.app.request(`/api/o-forms/o-form-submission-qualification/1?mediaChannelId=${f.mediaChannelId}`, {
      method: 'OPTIONS',
      headers: { Origin: `https://${f.domain}`, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': SUBMISSION_TOKEN_HEADER },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-max-age')).toBe('7200');
  });
});

describe('one request per Next: the page timing rides in the save', () => {
  const metricsOf = (submissionId: string) =>
    h.db
      .select()
      .from(oFormPageMetrics)
      .where(eq(oFormPageMetrics.submissionId, Number(submissionId)));

  it("keeps the page's timing with its answers, as the timing call does", async () => {
    const s = await startSubmission(h, f, { withFirstPage: true });
    const timing = { start: '2027-01-01T10:00:00.000Z', stop: '2027-01-01T10:00:07.500Z' };
    const body = { data: { type: 'o-form-submission-pages', id: s.firstEntryId, attributes: { answers: { q_choice: 'yes' }, timing } } };
    const res = await simple(h.app, `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, body, s.token);
    expect(res.status).toBe(200);
    const kept = await metricsOf(s.submissionId);
    expect(kept.map((m) => ({ identity: m.identity, type: m.type, start: m.start.toISOString(), stop: m.stop?.toISOString() }))).toEqual([
      { identity: 'p1', type: 'page', ...timing },
    ]);
    // Without timing the save keeps none.
    const { meta } = (await res.json()) as { meta: { nextContainerEntryId: string } };
    expect(
      (
        await simple(
          h.app,
          `/api/o-forms/o-form-submission-page/${meta.nextContainerEntryId}`,
          pageBody(meta.nextContainerEntryId, { q_dob: '1980-06-15' }),
          s.token,
        )
      ).status,
    ).toBe(200);
    expect(await metricsOf(s.submissionId)).toHaveLength(1);
  });

  it('refuses a timing that is not one, and keeps no timing for refused answers', async () => {
    const s = await startSubmission(h, f, { withFirstPage: true });
    const path = `/api/o-forms/o-form-submission-page/${s.firstEntryId}`;
    const withTiming = (answers: Record<string, unknown>, timing: unknown) => ({
      data: { type: 'o-form-submission-pages', id: s.firstEntryId, attributes: { answers, timing } },
    });
    const backwards = await simple(h.app, path, withTiming({ q_choice: 'yes' }, { start: '2027-01-01T10:00:07Z', stop: '2027-01-01T10:00:00Z' }), s.token);
    expect(backwards.status).toBe(422);
    expect(((await backwards.json()) as { errors: { source: { pointer: string } }[] }).errors[0]!.source.pointer).toBe('/data/attributes/timing/stop');
    expect((await simple(h.app, path, withTiming({ q_choice: 'yes' }, { start: 'yesterday', stop: '2027-01-01T10:00:00Z' }), s.token)).status).toBe(422);
    expect((await simple(h.app, path, withTiming({ q_choice: 'yes' }, 'ten seconds'), s.token)).status).toBe(422);
    expect(await answersOf(s.submissionId)).toEqual([]);
    const s2 = await startSubmission(h, f, { withFirstPage: true });
    await simple(
      h.app,
      '/api/o-forms/o-form-submission-page/' + s2.firstEntryId,
      {
        data: {
          type: 'o-form-submission-pages',
          id: s2.firstEntryId,
          attributes: { answers: { q_choice: 'not an option' }, timing: { start: '2027-01-01T10:00:00Z', stop: '2027-01-01T10:00:01Z' } },
        },
      },
      s2.token,
    );
    expect(await metricsOf(s.submissionId)).toEqual([]);
    expect(await metricsOf(s2.submissionId)).toEqual([]);
  });

  it('clears the pages left behind by a POST with the token in the body, as PATCH does', async () => {
    const s = await startSubmission(h, f, { withFirstPage: true });
    await simple(h.app, `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, pageBody(s.firstEntryId, { q_choice: 'yes' }), s.token);
    const path = `/api/o-forms/o-form-submission-sanitization/${s.submissionId}`;
    const body = { data: { type: 'o-form-submission-sanitizations', id: s.submissionId, attributes: { pageIds: [Number(s.firstEntryId)] } } };
    expect((await simple(h.app, path, body, null)).status).toBe(401);
    expect((await simple(h.app, path, body, s.token, f, 'https://evil.example')).status).toBe(403);
    expect(await answersOf(s.submissionId)).toHaveLength(1);
    const res = await simple(h.app, path, body, s.token);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { meta: { isSanitizeSuccess: boolean } }).meta.isSanitizeSuccess).toBe(true);
    expect(await answersOf(s.submissionId)).toEqual([]);
  });
});

/** The same read as GET with the token header (and, for a place, the query), as the old widget sent it. */
const headerRead = (path: string, token: string) =>
  h.request('GET', `${path}${path.includes('?') ? '&' : '?'}mediaChannelId=${f.mediaChannelId}`, {
    headers: { [SUBMISSION_TOKEN_HEADER]: token, Origin: `https://${f.domain}` },
  });

const place = (attributes: Record<string, unknown>) => ({ data: { attributes } });

describe('reads without a preflight: the place in the body, the token beside it', () => {
  it('finds the sites near a ZIP sent in the body, as the GET with the ZIP in its address does', async () => {
    const run = await runQualified(h, f);
    const path = `/api/o-forms/o-form-submission-sites/${run.submissionId}`;
    const res = await simple(h.app, path, place({ zip: '10001' }), run.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(`https://${f.domain}`);
    const body = (await res.json()) as { data: { id: string }[]; meta: { outcome: string } };
    expect(body.meta.outcome).toBe('qualified');
    expect(body.data.length).toBeGreaterThan(0);
    expect(body).toEqual(await (await headerRead(`${path}?zip=10001`, run.token)).json());
  });

  it("keeps the sites' rules: no token 401, another run's 404, another site 403, a bad place 422", async () => {
    const run = await runQualified(h, f);
    const other = await runQualified(h, f);
    const path = `/api/o-forms/o-form-submission-sites/${run.submissionId}`;
    expect((await simple(h.app, path, place({ zip: '10001' }), null)).status).toBe(401);
    expect((await simple(h.app, path, place({ zip: '10001' }), other.token)).status).toBe(404);
    expect((await simple(h.app, path, place({ zip: '10001' }), run.token, f, 'https://evil.example')).status).toBe(403);
    const unknown = await simple(h.app, path, place({ zip: '00000' }), run.token);
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { errors: { source: { parameter: string } }[] }).errors[0]!.source.parameter).toBe('zip');
    const notText = await simple(h.app, path, place({ zip: 10001 }), run.token);
    expect(notText.status).toBe(422);
    expect(((await notText.json()) as { errors: { source: { pointer: string } }[] }).errors[0]!.source.pointer).toBe('/data/attributes/zip');
    const country = await simple(h.app, path, place({ zip: 'Madrid', country: 'XX' }), run.token);
    expect(country.status).toBe(422);
    expect((await simple(h.app, path, {}, run.token)).status).toBe(422);
  });

  it("answers the outcome, the contact form and a page's answers to a POST as to a GET with the header", async () => {
    const run = await runQualified(h, f);
    const outcome = `/api/o-forms/o-form-submission-outcome/${run.submissionId}`;
    const posted = await simple(h.app, outcome, {}, run.token);
    expect(posted.status).toBe(200);
    expect(posted.headers.get('cache-control')).toBe('no-store');
    expect(await posted.json()).toEqual(await (await headerRead(outcome, run.token)).json());
    expect((await simple(h.app, outcome, {}, null)).status).toBe(401);

    const form = `/api/o-forms/o-form-submission-contact-fields/${run.submissionId}`;
    const fields = await simple(h.app, form, {}, run.token);
    expect(fields.status).toBe(200);
    const fieldsBody = (await fields.json()) as { data: { attributes: { name: string } }[] };
    expect(fieldsBody.data.map((d) => d.attributes.name)).toEqual(f.contactFieldNames);
    expect(fieldsBody).toEqual(await (await headerRead(form, run.token)).json());
    expect((await simple(h.app, form, {}, run.token, f, 'https://evil.example')).status).toBe(403);

    const s = await startSubmission(h, f, { withFirstPage: true });
    await simple(h.app, `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, pageBody(s.firstEntryId, { q_choice: 'yes' }), s.token);
    const entry = `/api/o-forms/o-form-container-entries/${s.firstEntryId}`;
    const read = await simple(h.app, entry, {}, s.token);
    expect(read.status).toBe(200);
    const readBody = (await read.json()) as { meta: { answers: Record<string, unknown> } };
    expect(readBody.meta.answers).toEqual({ q_choice: 'yes' });
    expect(readBody).toEqual(await (await headerRead(entry, s.token)).json());
    expect((await simple(h.app, entry, {}, run.token)).status).toBe(404);
    expect((await simple(h.app, entry, {}, null)).status).toBe(401);
  });

  it("answers a lead's form to a POST, no ZIP typed as none sent", async () => {
    const { submissionId, token, firstEntryId } = await startSubmission(h, f);
    const p1 = await answerPage(h, token, firstEntryId, { q_choice: 'no' });
    const p2 = await answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
    await answerPage(h, token, p2.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: ['a'] });
    const path = `/api/o-forms/o-form-submission-lead-fields/${submissionId}`;
    const res = await simple(h.app, path, place({ zip: '' }), token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { meta: { outcome: string } };
    expect(body.meta.outcome).toBe('notQualified');
    expect(body).toEqual(await (await headerRead(path, token)).json());
    expect((await simple(h.app, path, place({}), null)).status).toBe(401);
    expect((await simple(h.app, path, place({ zip: ['10001'] }), token)).status).toBe(422);
  });
});

describe('rate limits of the POST page save', () => {
  afterEach(() => h.clock.release());
  it('counts a POST save as a PATCH one: 429 with Retry-After over the limit, nothing stored', async () => {
    h.clock.set('2027-10-01T10:00:45Z');
    const app = secondApp(h, { PARTICIPANT_LIMIT_WINDOW_SECONDS: '60', PARTICIPANT_PAGES_PER_CHANNEL: '2' });
    const fx = await createParticipantFixture(h.db);
    const s = await startSubmission(h, fx, { withFirstPage: true });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (const answer of ['stop', 'stop', 'yes']) {
      last = await simple(app, `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, pageBody(s.firstEntryId, { q_choice: answer }), s.token, fx);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(last!.headers.get('retry-after')).toBe('15');
    expect(last!.headers.get('access-control-allow-origin')).toBe(`https://${fx.domain}`);
    const stored = await answersOf(s.submissionId);
    expect(stored).toHaveLength(1);
  });
});

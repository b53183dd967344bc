/**
 * The first Next in one request: a submission's creation that carries its first page's answers
 * (and timing) saves them as the page's own save would, and answers where they lead. Answers it
 * refuses leave the submission made and the page unsaved, for the page's own save to answer
 * their problems; answers without their page are refused before anything is written.
 */
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ANSWERS_WITHOUT_PAGE } from '@core/participant/requests';
import { checkParticipantAnswer, type PageSavedMeta } from '@core/participant/responses';
import { SUBMISSION_TOKEN_HEADER } from '@core/participant/wire';
import { oFormPageMetrics, oFormSubmissions } from '../../../server/db/schema';
import { answerPage, createParticipantFixture, type ParticipantFixture } from '../../support/participantFixture';
import type { Harness } from '../harness';
import { secondApp, useParticipantServer } from '../participantServer';
import { storedAnswersOf } from '../storedAnswers';

let h: Harness;
let f: ParticipantFixture;
useParticipantServer((server) => ({ h, f } = server));

type Created = { data: { id: string }; meta?: { containerEntryId: string; pageSaved?: PageSavedMeta } };

/** POST /o-form-submissions with these attributes (besides the survey and channel); the answer checked against the contract. */
async function start(attributes: Record<string, unknown>, app: { request: Harness['app']['request'] } = h.app, fixture = f) {
  const res = await app.request(`/api/o-forms/o-form-submissions?mediaChannelId=${fixture.mediaChannelId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.api+json', Accept: 'application/vnd.api+json', Origin: `https://${fixture.domain}` },
    body: JSON.stringify({
      data: { type: 'o-form-submissions', attributes: { oFormId: fixture.oFormId, mediaChannelId: fixture.mediaChannelId, ...attributes } },
    }),
  });
  const body = (await res.json()) as Created;
  checkParticipantAnswer('submission', res.status, body);
  return { res, body, token: res.headers.get(SUBMISSION_TOKEN_HEADER) };
}

const answersOf = async (submissionId: string) => (await storedAnswersOf(h.db, submissionId)).map(({ fieldId }) => ({ fieldId }));

const metricsOf = (submissionId: string) =>
  h.db
    .select()
    .from(oFormPageMetrics)
    .where(eq(oFormPageMetrics.submissionId, Number(submissionId)));

const submissionCount = async () => (await h.db.select({ n: count() }).from(oFormSubmissions))[0]!.n;

describe('the first page saved with the submission', () => {
  it('saves the answers and the timing, and answers the next page with its entry', async () => {
    const timing = { start: '2027-01-01T10:00:00.000Z', stop: '2027-01-01T10:00:04.250Z' };
    const { res, body, token } = await start({ oFormContainerId: f.pages.p1.id, answers: { q_choice: 'yes' }, timing });
    expect(res.status).toBe(201);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const saved = body.meta!.pageSaved!;
    expect(saved).toMatchObject({ success: true, nextContainerIdentity: 'p2', nextOFormIdentity: null });
    expect(saved.nextContainerEntryId).toMatch(/^\d+$/);
    expect(saved.nextPage?.data.id).toBe(String(f.pages.p2.id));
    expect(await answersOf(body.data.id)).toEqual([{ fieldId: f.fields.q_choice.id }]);
    const kept = await metricsOf(body.data.id);
    expect(kept.map((m) => ({ identity: m.identity, start: m.start.toISOString(), stop: m.stop?.toISOString() }))).toEqual([{ identity: 'p1', ...timing }]);

    // The run goes on from the entry it answered, with its token.
    const p2 = await answerPage(h, token!, saved.nextContainerEntryId!, { q_dob: '1980-06-15' });
    expect(p2.meta.nextContainerIdentity).toBe('p3');
    expect(await answersOf(body.data.id)).toHaveLength(2);
  });

  it('follows the answers where they lead: a jump, the end', async () => {
    const jump = await start({ oFormContainerId: f.pages.p1.id, answers: { q_choice: 'skip' } });
    expect(jump.body.meta!.pageSaved).toMatchObject({ nextContainerIdentity: 'p3' });
    const end = await start({ oFormContainerId: f.pages.p1.id, answers: { q_choice: 'stop' } });
    expect(end.body.meta!.pageSaved).toMatchObject({ nextContainerIdentity: null, nextContainerEntryId: null, nextPage: null });
    // Without answers, the start opens the page as it always has.
    const plain = await start({ oFormContainerId: f.pages.p1.id });
    expect(plain.body.meta).toEqual({ containerEntryId: expect.stringMatching(/^\d+$/) });
  });

  it("leaves refused answers to the page's own save: the submission made, nothing stored", async () => {
    const { res, body, token } = await start({
      oFormContainerId: f.pages.p1.id,
      answers: { q_choice: 'not an option' },
      timing: { start: '2027-01-01T10:00:00Z', stop: '2027-01-01T10:00:01Z' },
    });
    expect(res.status).toBe(201);
    expect(body.meta).toEqual({ containerEntryId: expect.stringMatching(/^\d+$/) });
    expect(await answersOf(body.data.id)).toEqual([]);
    expect(await metricsOf(body.data.id)).toEqual([]);
    // The page's own save answers the problem, and then takes the corrected answer.
    const entryId = body.meta!.containerEntryId;
    const refused = await h.request('PATCH', `/api/o-forms/o-form-submission-page/${entryId}`, {
      headers: { [SUBMISSION_TOKEN_HEADER]: token! },
      body: { data: { type: 'o-form-submission-pages', id: entryId, attributes: { answers: { q_choice: 'not an option' } } } },
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(((await refused.json()) as { meta: { errors: object } }).meta.errors)).toEqual(['q_choice']);
    expect((await answerPage(h, token!, entryId, { q_choice: 'yes' })).meta.nextContainerIdentity).toBe('p2');
  });

  it('refuses answers without their page, or not answers at all, writing nothing', async () => {
    const before = await submissionCount();
    const orphan = await start({ answers: { q_choice: 'yes' } });
    expect(orphan.res.status).toBe(422);
    expect((orphan.body as unknown as { errors: { detail: string; source: { pointer: string } }[] }).errors[0]).toMatchObject({
      detail: ANSWERS_WITHOUT_PAGE,
      source: { pointer: '/data/attributes/answers' },
    });
    const notAnswers = await start({ oFormContainerId: f.pages.p1.id, answers: 'yes' });
    expect(notAnswers.res.status).toBe(422);
    expect((notAnswers.body as unknown as { errors: { source: { pointer: string } }[] }).errors[0]!.source.pointer).toBe('/data/attributes/answers');
    const badTiming = await start({ oFormContainerId: f.pages.p1.id, answers: { q_choice: 'yes' }, timing: { start: 'soon', stop: 'later' } });
    expect(badTiming.res.status).toBe(422);
    expect(orphan.token).toBeNull();
    expect(await submissionCount()).toBe(before);
  });

  it("counts the save against the page limits: over them, the page's own save answers 429", async () => {
    h.clock.set('2027-10-01T10:00:45Z');
    const app = secondApp(h, { PARTICIPANT_LIMIT_WINDOW_SECONDS: '60', PARTICIPANT_PAGES_PER_CHANNEL: '1' });
    const fx = await createParticipantFixture(h.db);
    const first = await start({ oFormContainerId: fx.pages.p1.id, answers: { q_choice: 'yes' } }, app, fx);
    expect(first.body.meta!.pageSaved).toMatchObject({ nextContainerIdentity: 'p2' });
    const second = await start({ oFormContainerId: fx.pages.p1.id, answers: { q_choice: 'yes' } }, app, fx);
    expect(second.res.status).toBe(201);
    expect(second.body.meta!.pageSaved).toBeUndefined();
    expect(await answersOf(second.body.data.id)).toEqual([]);
    const entryId = second.body.meta!.containerEntryId;
    const limited = await app.request(`/api/o-forms/o-form-submission-page/${entryId}?mediaChannelId=${fx.mediaChannelId}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/vnd.api+json', Origin: `https://${fx.domain}`, [SUBMISSION_TOKEN_HEADER]: second.token! },
      body: JSON.stringify({ data: { type: 'o-form-submission-pages', id: entryId, attributes: { answers: { q_choice: 'yes' } } } }),
    });
    expect(limited.status).toBe(429);
  });
});

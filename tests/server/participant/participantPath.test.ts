/**
 * Screening integrity on the real server and database: a participant qualifies only over the
 * complete path from the first page to the survey's end; a path that stops early is
 * `incomplete` and the ZIP, sites and contact steps refuse it with a 409, writing nothing; page
 * entries are made only along the path; and once the run reached its outcome its answers are
 * final. The honest paths (qualified, notQualified, noTrialSites) are unchanged.
 */
import { describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { json, type Harness } from '../harness';
import {
  answerPage,
  createParticipantFixture,
  leaveContact as leaveContactAt,
  type ParticipantFixture,
  runQualified,
  startSubmission,
  withToken,
} from '../../support/participantFixture';
import { submissionRow, useParticipantServer } from '../participantServer';
import { contacts, oFormContainerEntries, oFormFieldEntries, oFormFields, referrals, rmsAudits } from '../../../server/db/schema';
import { channelFigures } from '../../../server/participant/channelFigures';
import { settleDeliveries } from '../../../server/rms/worker';
import { PAGE_NOT_ON_PATH, SCREENING_INCOMPLETE, SUBMISSION_COMPLETED } from '../../../server/participant/api';
import { followPath, type PathStep } from '../../../server/participant/path';
import { judgePath } from '../../../server/participant/qualification';
import type { Survey } from '../../../server/participant/runSurvey';
import { rowsWhere } from '../rowsWhere';

let h: Harness;
let f: ParticipantFixture;

useParticipantServer((server) => ({ h, f } = server));

const VALUES = { first_name: 'Ada', email: 'ada.path@example.com', phone: '212-555-0100' };

const qualification = async (submissionId: string, token: string) => {
  const res = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers: withToken(token) });
  expect(res.status).toBe(200);
  return (await json(res)).meta as { isQualified: boolean; outcome: string; engagementIds: string[]; messages: { contactForm: string } };
};
const createEntry = (token: string, submissionId: string, containerId: number) =>
  h.request('POST', '/api/o-forms/o-form-container-entries', {
    headers: withToken(token),
    body: { data: { type: 'o-form-container-entries', attributes: { oFormContainerId: containerId, oFormSubmissionId: Number(submissionId) } } },
  });
const sites = (submissionId: string, token: string, zip = '10001') =>
  h.request('GET', `/api/o-forms/o-form-submission-sites/${submissionId}?zip=${zip}`, { headers: withToken(token) });
const contactFields = (submissionId: string, token: string) =>
  h.request('GET', `/api/o-forms/o-form-submission-contact-fields/${submissionId}`, { headers: withToken(token) });
const leaveContact = (submissionId: string, token: string, values: Record<string, string> = VALUES) => leaveContactAt(h, f, { submissionId, token }, values);

/** What the steps after qualification could write. */
const written = async (submissionId: string) => {
  const submission = await submissionRow(h, submissionId);
  return {
    contacts: (await h.db.select({ n: count() }).from(contacts))[0]!.n,
    referrals: (await h.db.select({ n: count() }).from(referrals))[0]!.n,
    audits: (await h.db.select({ n: count() }).from(rmsAudits))[0]!.n,
    status: submission!.status,
    completed: (await channelFigures(h.db, [f.mediaChannelId])).get(f.mediaChannelId)!.submissionsCompleted,
  };
};

/** Every step after qualification answers 409 (incomplete) and writes nothing. */
async function expectRefusedAfterQualification(submissionId: string, token: string) {
  const before = await written(submissionId);
  for (const res of [await sites(submissionId, token), await contactFields(submissionId, token), await leaveContact(submissionId, token)]) {
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0].detail).toBe(SCREENING_INCOMPLETE);
  }
  await settleDeliveries();
  expect(await written(submissionId)).toEqual(before);
  expect(before.status).toBe('in_progress');
}

describe('qualification over the complete path', () => {
  it('finds a submission without answers incomplete, and refuses its ZIP, sites and contact', async () => {
    const s = await startSubmission(h, f);
    const q = await qualification(s.submissionId, s.token);
    expect(q).toMatchObject({ isQualified: false, outcome: 'incomplete', engagementIds: [] });
    expect(q.messages.contactForm).toContain('not been answered yet');
    await expectRefusedAfterQualification(s.submissionId, s.token);
  });

  it('finds a path that stops after page 1 incomplete', async () => {
    const s = await startSubmission(h, f);
    expect((await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' })).meta.nextContainerIdentity).toBe('p2');
    expect(await qualification(s.submissionId, s.token)).toMatchObject({ isQualified: false, outcome: 'incomplete' });
    await expectRefusedAfterQualification(s.submissionId, s.token);
  });

  it('refuses a page entry that skips the first page, and does not count answers stored without it', async () => {
    const s = await startSubmission(h, f);
    const entriesBefore = await h.db
      .select()
      .from(oFormContainerEntries)
      .where(eq(oFormContainerEntries.submissionId, Number(s.submissionId)));
    const skip = await createEntry(s.token, s.submissionId, f.pages.p3.id);
    expect(skip.status).toBe(409);
    expect((await json(skip)).errors[0].detail).toBe(PAGE_NOT_ON_PATH);
    expect(await rowsWhere(h.db, oFormContainerEntries.submissionId, Number(s.submissionId))).toEqual(entriesBefore);
    // Even a page 3 answered without page 1 (rows made by hand) leaves the path unanswered.
    const [p3] = await h.db
      .insert(oFormContainerEntries)
      .values({ submissionId: Number(s.submissionId), containerId: f.pages.p3.id, answeredAt: new Date() })
      .returning();
    await h.db.insert(oFormFieldEntries).values({ containerEntryId: p3!.id, fieldId: f.fields.q_zip.id, fieldValue: '10001' });
    expect(await qualification(s.submissionId, s.token)).toMatchObject({ isQualified: false, outcome: 'incomplete' });
    await expectRefusedAfterQualification(s.submissionId, s.token);
  });

  it('makes page entries only along the path: the next page and revisits, nothing off it', async () => {
    const s = await startSubmission(h, f);
    await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
    const off = await createEntry(s.token, s.submissionId, f.pages.p3.id);
    expect(off.status).toBe(409);
    expect((await createEntry(s.token, s.submissionId, f.pages.p2.id)).status).toBe(201);
    expect((await createEntry(s.token, s.submissionId, f.pages.p1.id)).status).toBe(201);
    // Page 1 now jumps to page 3: page 3 is next, page 2 is off the path.
    await answerPage(h, s.token, s.firstEntryId, { q_choice: 'skip' });
    expect((await createEntry(s.token, s.submissionId, f.pages.p3.id)).status).toBe(201);
    expect((await createEntry(s.token, s.submissionId, f.pages.p2.id)).status).toBe(409);
  });

  it('drops a sanitized page from the path', async () => {
    const s = await startSubmission(h, f);
    const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
    const p2 = await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
    await answerPage(h, s.token, p2.meta.nextContainerEntryId!, { q_zip: '10001' });
    const sanitized = await h.request('PATCH', `/api/o-forms/o-form-submission-sanitization/${s.submissionId}`, {
      headers: withToken(s.token),
      body: { data: { attributes: { pageIds: [p2.meta.nextContainerEntryId] } } },
    });
    expect((await json(sanitized)).meta.isSanitizeSuccess).toBe(true);
    expect((await qualification(s.submissionId, s.token)).outcome).toBe('incomplete');
  });

  it('counts a page whose questions are all optional and left empty as answered', async () => {
    const fx = await createParticipantFixture(h.db);
    await h.db
      .update(oFormFields)
      .set({ configuration: { required: false, helperText: null, translations: {}, options: [] } })
      .where(eq(oFormFields.id, fx.fields.q_zip.id));
    const s = await startSubmission(h, fx);
    const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
    const p2 = await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
    expect((await answerPage(h, s.token, p2.meta.nextContainerEntryId!, {})).meta.nextContainerIdentity).toBeNull();
    expect(await qualification(s.submissionId, s.token)).toMatchObject({ isQualified: true, outcome: 'qualified' });
  });

  it('keeps the honest outcomes: qualified, notQualified and noTrialSites', async () => {
    const qualified = await runQualified(h, f);
    expect(await qualification(qualified.submissionId, qualified.token)).toMatchObject({ isQualified: true, outcome: 'qualified' });
    expect((await json(await sites(qualified.submissionId, qualified.token))).meta.outcome).toBe('qualified');
    expect((await contactFields(qualified.submissionId, qualified.token)).status).toBe(200);
    expect((await leaveContact(qualified.submissionId, qualified.token)).status).toBe(201);

    const far = await runQualified(h, f);
    const noSites = await json(await sites(far.submissionId, far.token, '08540'));
    expect(noSites).toMatchObject({ data: [], meta: { outcome: 'noTrialSites' } });

    const s = await startSubmission(h, f);
    const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'no' });
    const p2 = await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
    await answerPage(h, s.token, p2.meta.nextContainerEntryId!, { q_zip: '10001' });
    expect(await qualification(s.submissionId, s.token)).toMatchObject({ isQualified: false, outcome: 'notQualified' });
    // The run ended at its outcome: its token opens nothing after it (finishedRunToken.test.ts).
    expect((await sites(s.submissionId, s.token)).status).toBe(404);
    expect((await leaveContact(s.submissionId, s.token)).status).toBe(404);
    await settleDeliveries();
  });

  it('makes the answers final once the outcome is reached: no answer, entry or sanitization changes them', async () => {
    const s = await startSubmission(h, f);
    const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'no' });
    const p2 = await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
    await answerPage(h, s.token, p2.meta.nextContainerEntryId!, { q_zip: '10001' });
    expect((await qualification(s.submissionId, s.token)).outcome).toBe('notQualified');
    const row = await submissionRow(h, s.submissionId);
    expect(row!.finishedAt).toBeInstanceOf(Date);

    // Not qualified, the run ended: its token opens only the outcome (finishedRunToken.test.ts).
    const retry = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
    expect(retry.status).toBe(404);
    const entry = await createEntry(s.token, s.submissionId, f.pages.p1.id);
    expect(entry.status).toBe(404);
    const sanitize = await h.request('PATCH', `/api/o-forms/o-form-submission-sanitization/${s.submissionId}`, {
      headers: withToken(s.token),
      body: { data: { attributes: { pageIds: [s.firstEntryId] } } },
    });
    expect(sanitize.status).toBe(404);
    const outcome = await h.request('GET', `/api/o-forms/o-form-submission-outcome/${s.submissionId}`, { headers: withToken(s.token) });
    expect((await json(outcome)).meta).toMatchObject({ isQualified: false, outcome: 'notQualified' });

    // A qualified run's answers are final too, its steps after qualification still ahead: 409.
    const q = await runQualified(h, f);
    expect(await qualification(q.submissionId, q.token)).toMatchObject({ isQualified: true });
    const [qEntry] = await h.db
      .select()
      .from(oFormContainerEntries)
      .where(eq(oFormContainerEntries.submissionId, Number(q.submissionId)));
    const qRetry = await answerPage(h, q.token, String(qEntry!.id), { q_choice: 'no' });
    expect(qRetry.status).toBe(409);
    const qEntryMade = await createEntry(q.token, q.submissionId, f.pages.p1.id);
    expect(qEntryMade.status).toBe(409);
    expect((await json(qEntryMade)).errors[0].detail).toBe(SUBMISSION_COMPLETED);
  });
});

describe('the path, judged', () => {
  // A two-page survey: page A's question `go` jumps to B, ends, or hands over to another survey.
  const page = (id: number, identity: string, displayOrder: number) =>
    ({ id, identity, oFormId: 1, title: identity, displayOrder, isActive: true, containerType: 'root_container', parentId: null }) as Survey['pages'][number];
  const A = page(1, 'A', 1);
  const B = page(2, 'B', 2);
  const survey: Survey = {
    form: {} as Survey['form'],
    pages: [A, B],
    containers: [A, B],
    fields: [
      {
        id: 10,
        identity: 'go',
        containerId: 1,
        pageId: 1,
        title: 'Go',
        type: 'single',
        displayOrder: 1,
        configuration: {
          required: true,
          helperText: null,
          translations: {},
          options: [
            { label: 'B', value: 'b', translations: {}, isDisqualified: false, transition: null },
            { label: 'back', value: 'loop', translations: {}, isDisqualified: false, transition: { to: 'page', identity: 'A' } },
            { label: 'other', value: 'other', translations: {}, isDisqualified: false, transition: { to: 'survey', identity: 'elsewhere' } },
          ],
        },
      },
      {
        id: 11,
        identity: 'back',
        containerId: 2,
        pageId: 2,
        title: 'Back',
        type: 'single',
        displayOrder: 1,
        configuration: {
          required: false,
          helperText: null,
          translations: {},
          options: [{ label: 'A', value: 'a', translations: {}, isDisqualified: false, transition: { to: 'page', identity: 'A' } }],
        },
      },
    ],
  };
  const answered = (entries: Record<number, Record<string, string>>) =>
    new Map(Object.entries(entries).map(([pageId, answers], i) => [Number(pageId), { entryId: i + 1, answers }]));
  const judge = (entries: Record<number, Record<string, string>>) =>
    judgePath(survey, followPath(survey, answered(entries)), [7], new Date('2030-01-01T00:00:00Z'));

  it('qualifies a path past the last page, and nothing short of it', () => {
    expect(judge({ 1: { go: 'b' }, 2: {} })).toMatchObject({ isQualified: true, outcome: 'qualified', engagementIds: [7] });
    expect(judge({ 1: { go: 'b' } }).outcome).toBe('incomplete');
    expect(judge({ 2: {} }).outcome).toBe('incomplete');
    expect(followPath(survey, answered({ 1: { go: 'b' } })).end).toMatchObject({ kind: 'page', page: { identity: 'B' } });
  });

  it('finds a path handed over to another survey, or running in a circle, incomplete', () => {
    expect(followPath(survey, answered({ 1: { go: 'other' } })).end).toEqual({ kind: 'survey', identity: 'elsewhere' });
    expect(judge({ 1: { go: 'other' } }).outcome).toBe('incomplete');
    expect(followPath(survey, answered({ 1: { go: 'b' }, 2: { back: 'a' } })).end.kind).toBe('loop');
    expect(judge({ 1: { go: 'b' }, 2: { back: 'a' } }).outcome).toBe('incomplete');
  });

  it('finds a stored answer that is not valid (a required one missing, an option not offered) incomplete', () => {
    expect(judge({ 1: {}, 2: {} }).outcome).toBe('incomplete');
    const steps: PathStep[] = [{ page: A, entryId: 1, answers: { go: 'nonsense' } }];
    expect(judgePath(survey, { steps, end: { kind: 'end' } }, [7], new Date('2030-01-01T00:00:00Z')).outcome).toBe('incomplete');
  });

  it('serializes a page save and the qualification sent at the same moment: no save is accepted after the outcome', async () => {
    const rounds = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const s = await startSubmission(h, f);
        const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'no' });
        const p2 = await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
        await answerPage(h, s.token, p2.meta.nextContainerEntryId!, { q_zip: '10001' });
        const [save, judged] = await Promise.all([answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' }), qualification(s.submissionId, s.token)]);
        const [stored] = await h.db
          .select({ value: oFormFieldEntries.fieldValue })
          .from(oFormFieldEntries)
          .where(and(eq(oFormFieldEntries.containerEntryId, Number(s.firstEntryId)), eq(oFormFieldEntries.fieldId, f.fields.q_choice.id)));
        return { save: save.status, outcome: judged.outcome, stored: stored!.value };
      }),
    );
    for (const round of rounds) {
      expect(round).toEqual(round.save === 200 ? { save: 200, outcome: 'qualified', stored: 'yes' } : { save: 404, outcome: 'notQualified', stored: 'no' });
    }
  });
});

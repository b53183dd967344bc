/**
 * A finished run's token, kept in the browser for the channel's retake window, opens its outcome
 * and nothing else: once the run ended (contact left, or not qualified) its page entries,
 * answers, sites, contact fields, qualification and contact answer 404 exactly as for an id that
 * does not exist, and write nothing. A run that qualified keeps its steps after qualification
 * open until its contact is left. Real server and database.
 */
import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { json, type Harness } from '../harness';
import { answerPage, leaveContact, startSubmission, type ParticipantFixture, withToken } from '../../support/participantFixture';
import { submissionRow, useParticipantServer } from '../participantServer';
import { contacts, oFormContainerEntries, oFormFieldEntries, oFormSubmissions } from '../../../server/db/schema';

let h: Harness;
let f: ParticipantFixture;

useParticipantServer((server) => ({ h, f } = server));

const VALUES = { first_name: 'Ada', email: 'ada.finished@example.com', phone: '212-555-0100' };

interface Run {
  submissionId: string;
  token: string;
  entryIds: string[];
}

/** A run to the survey's end with `choice` on page 1 ('no' disqualifies), its qualification asked. */
async function runTo(choice: 'yes' | 'no'): Promise<Run> {
  const { submissionId, token, firstEntryId } = await startSubmission(h, f);
  const p1 = await answerPage(h, token, firstEntryId, { q_choice: choice });
  const p2 = await answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: 'my private note' });
  const p3 = await answerPage(h, token, p2.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: ['a'] });
  expect(p3.meta.nextContainerIdentity).toBeNull();
  const q = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers: withToken(token) });
  expect(q.status).toBe(200);
  expect((await json(q)).meta.isQualified).toBe(choice === 'yes');
  return { submissionId, token, entryIds: [firstEntryId, p1.meta.nextContainerEntryId!, p2.meta.nextContainerEntryId!] };
}

/** Every call a token makes about its run, but the outcome. */
const calls = (run: Run) => {
  const headers = withToken(run.token);
  const id = run.submissionId;
  return {
    entry: () => h.request('GET', `/api/o-forms/o-form-container-entries/${run.entryIds[0]}?include=oFormFieldEntries`, { headers }),
    lastEntry: () => h.request('GET', `/api/o-forms/o-form-container-entries/${run.entryIds[2]}?include=oFormFieldEntries`, { headers }),
    newEntry: () =>
      h.request('POST', '/api/o-forms/o-form-container-entries', {
        headers,
        body: { data: { type: 'o-form-container-entries', attributes: { oFormContainerId: f.pages.p1.id, oFormSubmissionId: Number(id) } } },
      }),
    answer: () =>
      h.request('PATCH', `/api/o-forms/o-form-submission-page/${run.entryIds[0]}`, {
        headers,
        body: { data: { type: 'o-form-submission-pages', id: run.entryIds[0], attributes: { answers: { q_choice: 'yes' } } } },
      }),
    badAnswer: () =>
      h.request('PATCH', `/api/o-forms/o-form-submission-page/${run.entryIds[0]}`, {
        headers,
        body: { data: { type: 'o-form-submission-pages', id: run.entryIds[0], attributes: { answers: { q_choice: 'not an option' } } } },
      }),
    sanitize: () =>
      h.request('PATCH', `/api/o-forms/o-form-submission-sanitization/${id}`, { headers, body: { data: { attributes: { pageIds: [run.entryIds[0]] } } } }),
    qualification: () => h.request('GET', `/api/o-forms/o-form-submission-qualification/${id}`, { headers }),
    sites: () => h.request('GET', `/api/o-forms/o-form-submission-sites/${id}?zip=10001`, { headers }),
    contactFields: () => h.request('GET', `/api/o-forms/o-form-submission-contact-fields/${id}`, { headers }),
    contact: () => leaveContact(h, f, run, { ...VALUES, email: 'someone.else@example.com' }),
  };
};

/** What a call of a finished run's token could change. */
const written = async (submissionId: string) => {
  const row = await submissionRow(h, submissionId);
  const entries = await h.db
    .select()
    .from(oFormContainerEntries)
    .where(eq(oFormContainerEntries.submissionId, Number(submissionId)));
  const answers = await h.db
    .select({ id: oFormFieldEntries.id, value: oFormFieldEntries.fieldValue, sealed: oFormFieldEntries.sealedValue })
    .from(oFormFieldEntries);
  return { row, entries, answers, contacts: (await h.db.select({ n: count() }).from(contacts))[0]!.n };
};

/** The 404 an unknown id answers, and the same for every call but the outcome. */
async function expectOnlyTheOutcome(run: Run) {
  const unknownEntry = await h.request('GET', '/api/o-forms/o-form-container-entries/99999999?include=oFormFieldEntries', { headers: withToken(run.token) });
  expect(unknownEntry.status).toBe(404);
  const unknownEntryBody = await json(unknownEntry);
  const unknownSubmission = await json(await h.request('GET', '/api/o-forms/o-form-submission-sites/99999999?zip=10001', { headers: withToken(run.token) }));

  const before = await written(run.submissionId);
  const refused = calls(run);
  for (const [name, call] of Object.entries(refused)) {
    const res = await call();
    const body = await res.text();
    expect(res.status, `${name}: ${body}`).toBe(404);
    // As for an id that does not exist: nothing tells the two apart, and no answer leaks.
    const expected = ['entry', 'lastEntry', 'answer', 'badAnswer'].includes(name) ? unknownEntryBody : unknownSubmission;
    expect(JSON.parse(body), name).toEqual(expected);
    expect(body, name).not.toContain('my private note');
    expect(body, name).not.toContain('10001');
  }
  expect(await written(run.submissionId)).toEqual(before);

  const outcome = await h.request('GET', `/api/o-forms/o-form-submission-outcome/${run.submissionId}`, { headers: withToken(run.token) });
  expect(outcome.status).toBe(200);
  const meta = (await json(outcome)).meta;
  expect(Object.keys(meta).sort()).toEqual(['finishedAt', 'isQualified', 'messages', 'outcome', 'retakeWindowDays', 'retakeWindowEnds', 'withinRetakeWindow']);
  return meta as { outcome: string; withinRetakeWindow: boolean };
}

describe("a finished run's token", () => {
  it('reads its entries, sites and contact fields while the run goes on', async () => {
    const run = await runTo('yes');
    const c = calls(run);
    const entry = await json(await c.lastEntry());
    expect(entry.meta.answers).toMatchObject({ q_zip: '10001' });
    expect((await c.sites()).status).toBe(200);
    expect((await c.contactFields()).status).toBe(200);
    // The qualified run's answers are final already (409, as before), but it has not ended.
    expect((await c.answer()).status).toBe(409);
  });

  it('opens only the outcome once the contact is left (completed)', async () => {
    const run = await runTo('yes');
    expect((await calls(run).sites()).status).toBe(200);
    expect((await leaveContact(h, f, run, VALUES)).status).toBe(201);
    const meta = await expectOnlyTheOutcome(run);
    expect(meta).toMatchObject({ outcome: 'completed', withinRetakeWindow: true });
  });

  it('opens only the outcome once the run is found not qualified', async () => {
    const run = await runTo('no');
    const meta = await expectOnlyTheOutcome(run);
    expect(meta).toMatchObject({ outcome: 'notQualified', withinRetakeWindow: true });
  });

  it('opens only the outcome even where this process kept the run as in progress', async () => {
    // The page calls read the run from what this process kept when it made the submission;
    // a run ended by another process (or straight in the database) is refused all the same.
    const run = await runTo('yes');
    await h.db
      .update(oFormSubmissions)
      .set({ status: 'completed', outcome: 'completed' })
      .where(eq(oFormSubmissions.id, Number(run.submissionId)));
    await expectOnlyTheOutcome(run);
  });

  it("never opens another run's entries (unchanged)", async () => {
    const mine = await runTo('yes');
    const theirs = await startSubmission(h, f);
    const res = await h.request('GET', `/api/o-forms/o-form-container-entries/${theirs.firstEntryId}?include=oFormFieldEntries`, {
      headers: withToken(mine.token),
    });
    expect(res.status).toBe(404);
  });

  it('needs its token still: 401 without one', async () => {
    const run = await runTo('no');
    const res = await h.request('GET', `/api/o-forms/o-form-container-entries/${run.entryIds[0]}`);
    expect(res.status).toBe(401);
  });
});

/**
 * The page documents say which pages cannot end the run (meta.cannotEnd, with the page that
 * follows: server/participant/cannotEnd.ts), on every route that answers a page — the containers
 * route, participant-start's first page and a save's next page — and nowhere else; and a save of
 * such a page still refuses bad answers, storing nothing. The fixture's second page loses its age
 * rule here (before anything reads the survey), so it is the one page that cannot end the run:
 * the first can disqualify and branches, the third is the last.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { PageDocument, PageSavedDocument, StartDocument } from '@core/participant/responses';
import { oFormFields } from '../../../server/db/schema';
import { storedAnswersOf } from '../storedAnswers';
import { answerPage, startSubmission, type ParticipantFixture } from '../../support/participantFixture';
import type { Harness } from '../harness';
import { useParticipantServer } from '../participantServer';

let h: Harness;
let f: ParticipantFixture;
useParticipantServer((server) => ({ h, f } = server));

beforeAll(async () => {
  await h.db
    .update(oFormFields)
    .set({ configuration: { required: true, helperText: null, translations: {}, options: [] } })
    .where(eq(oFormFields.id, f.fields.q_dob.id));
});

async function page(identity: string) {
  const res = await h.request(
    'GET',
    `/api/o-forms/o-form-containers?oFormId=${f.oFormId}&identity=${identity}&include=oFormFields&mediaChannelId=${f.mediaChannelId}`,
  );
  expect(res.status).toBe(200);
  return v.parse(PageDocument, await res.json());
}

const storedAnswers = (submissionId: string) => storedAnswersOf(h.db, submissionId);

describe('meta.cannotEnd on page documents', () => {
  it('is given for the page where nothing can end the run, with the page after it, and for no other', async () => {
    const [p1, p2, p3] = [await page('p1'), await page('p2'), await page('p3')];
    // p1 has a disqualifying option and transitions; p3 is the last page.
    expect(p1.meta).toBeUndefined();
    expect(p3.meta).toBeUndefined();
    expect(p2.meta?.cannotEnd).toBe(true);
    expect(p2.meta?.nextPage.data.id).toBe(String(f.pages.p3.id));
    expect(p2.meta?.nextPage.included.map((r) => r.attributes.identity)).toEqual(['q_zip', 'q_conditions']);
    // One page ahead, not a chain: the page carried has no meta of its own.
    expect(p2.meta?.nextPage).not.toHaveProperty('meta');
    // Nothing in any page tells which answer disqualifies.
    for (const document of [p1, p2, p3]) expect(JSON.stringify(document)).not.toMatch(/disqualifiedFor|"isDisqualified":true/);
  });

  it('is not on the first page participant-start answers (it can end the run), and is on the next page a save answers', async () => {
    const res = await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${f.mediaChannelId}&screenerId=${f.screenerId}`);
    const start = v.parse(StartDocument, await res.json());
    if (!start.meta.runnable) throw new Error('the fixture does not run');
    expect(start.meta.firstPage?.data.id).toBe(String(f.pages.p1.id));
    expect(start.meta.firstPage?.meta).toBeUndefined();

    const s = await startSubmission(h, f, { withFirstPage: true });
    const saved = await h.request('PATCH', `/api/o-forms/o-form-submission-page/${s.firstEntryId}`, {
      headers: { 'Survey-Submission-Token': s.token },
      body: { data: { type: 'o-form-submission-pages', id: s.firstEntryId, attributes: { answers: { q_choice: 'yes' } } } },
    });
    const { meta } = v.parse(PageSavedDocument, await saved.json());
    expect(meta.nextPage?.data.id).toBe(String(f.pages.p2.id));
    expect(meta.nextPage?.meta).toMatchObject({ cannotEnd: true, nextPage: { data: { id: String(f.pages.p3.id) } } });
  });

  it('leaves the save of such a page to refuse bad answers as ever, storing nothing', async () => {
    const s = await startSubmission(h, f, { withFirstPage: true });
    const first = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
    expect(first.status).toBe(200);
    const p2Entry = first.meta.nextContainerEntryId!;
    const before = (await storedAnswers(s.submissionId)).length;
    for (const answers of [{ q_dob: 'not a date' }, { q_dob: '2999-01-01' }, {}, { q_dob: '1980-01-01', q_text: 'x'.repeat(21) }]) {
      const refused = await answerPage(h, s.token, p2Entry, answers);
      expect(refused.status, JSON.stringify(answers)).toBe(422);
      expect(refused.meta.success).toBe(false);
    }
    expect(await storedAnswers(s.submissionId)).toHaveLength(before);
    // The page's answers stored, the save leads where the document said: the page after it.
    const accepted = await answerPage(h, s.token, p2Entry, { q_dob: '1980-01-01' });
    expect(accepted).toMatchObject({ status: 200, meta: { success: true, nextContainerIdentity: 'p3' } });
  });
});

/**
 * The first outcome makes a run's answers final, also when a page save and the qualification
 * arrive at the same moment on two server processes sharing one PostgreSQL: the two serialize
 * on the submission, so either the save lands first and the qualification judges it, or the
 * qualification lands first and the save is refused (404: a notQualified run has ended and its
 * token opens only its outcome). Never an outcome with a save after it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPage, createParticipantFixture, startSubmission, TOKEN_HEADER, type ParticipantFixture } from '../support/participantFixture';
import { participantOf, type RunningServer } from './server';
import { postgresReachable } from './postgres';
import { sharedPostgres, type SharedPostgres } from './sharedPostgres';

const postgres = await postgresReachable();

const ROUNDS = 160;
const AT_ONCE = 8;

let shared: SharedPostgres;
let a: RunningServer;
let b: RunningServer;
let fixture: ParticipantFixture;

describe.skipIf(!postgres)('a page save racing the qualification on two servers', () => {
  beforeAll(async () => {
    shared = await sharedPostgres('qualrace');
    [a, b] = await Promise.all([shared.start(), shared.start()]);
    await shared.write(async (db) => {
      fixture = await createParticipantFixture(db);
    });
  }, 120_000);

  afterAll(async () => {
    await shared?.close();
  });

  it(`finds no save accepted after an outcome in ${ROUNDS} rounds`, async () => {
    const [onA, onB] = [participantOf(a), participantOf(b)];
    const rounds: { submissionId: number; saved: number; outcome: string }[] = [];
    let next = 0;
    const client = async () => {
      while (next < ROUNDS) {
        const round = next++;
        // A whole path with the disqualifying answer, then at once: a save that makes it
        // qualifying (on one server) and the qualification (on the other).
        const { submissionId, token, firstEntryId } = await startSubmission(onA, fixture);
        const p1 = await answerPage(onA, token, firstEntryId, { q_choice: 'no' });
        const p2 = await answerPage(onB, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
        const p3 = await answerPage(onA, token, p2.meta.nextContainerEntryId!, { q_zip: '10001' });
        expect(p3.status).toBe(200);
        const [saver, judge] = round % 2 === 0 ? [onA, onB] : [onB, onA];
        const [save, qualification] = await Promise.all([
          answerPage(saver, token, firstEntryId, { q_choice: 'yes' }),
          judge.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers: { [TOKEN_HEADER]: token } }),
        ]);
        expect(qualification.status).toBe(200);
        const { outcome } = ((await qualification.json()) as { meta: { outcome: string } }).meta;
        expect([200, 404]).toContain(save.status);
        rounds.push({ submissionId: Number(submissionId), saved: save.status, outcome });
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, client));

    const db = new pg.Client({ connectionString: shared.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: number; outcome: string; choice: string }>(
        `select s.id, s.outcome,
                (select f.field_value #>> '{}' from o_form_field_entries f join o_form_container_entries e on e.id = f.container_entry_id
                  where e.submission_id = s.id and f.field_id = $1 order by e.id limit 1) as choice
         from o_form_submissions s where s.id = any($2::int[])`,
        [fixture.fields.q_choice.id, rounds.map((r) => r.submissionId)],
      );
      const stored = new Map(rows.map((r) => [r.id, r]));
      const crossed = rounds.filter((r) => {
        const row = stored.get(r.submissionId)!;
        // The save's 200 means its answer (yes) was judged: qualified. A 404 means the
        // qualification came first and judged `no`: notQualified. The row says the same.
        const expected = r.saved === 200 ? { outcome: 'qualified', choice: 'yes' } : { outcome: 'notQualified', choice: 'no' };
        return r.outcome !== expected.outcome || row.outcome !== expected.outcome || row.choice !== expected.choice;
      });
      expect(crossed).toEqual([]);
      // Both orders happened: the rounds did race.
      expect(rounds.some((r) => r.saved === 200)).toBe(true);
      expect(rounds.some((r) => r.saved === 404)).toBe(true);
    } finally {
      await db.end();
    }
  }, 300_000);
});

/**
 * Answers at rest on the real server and database: birth dates, ZIP codes and free text are
 * sealed with the PHI cipher (the raw table holds none of them in clear), choice answers stay
 * readable, and everything that reads answers — qualification by age, the participant's own
 * page entry, the record-system push — reads them as given. Answers stored in clear before
 * sealing are sealed in place on start.
 */
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { json, type Harness } from '../harness';
import { answerPage, runQualified, startSubmission, type ParticipantFixture, withToken } from '../../support/participantFixture';
import { contactLeft, useParticipantServer } from '../participantServer';
import { oFormContainerEntries, oFormFieldEntries } from '../../../server/db/schema';
import { rowsOf } from '../../../server/db/rows';
import { sealClearAnswers } from '../../../server/participant/sealedAnswers';
import { loadReferralFacts } from '../../../server/rms/payload';

let h: Harness;
let f: ParticipantFixture;

useParticipantServer((server) => ({ h, f } = server));

/** The submission's answer rows exactly as the table holds them (each row as JSON text). */
async function rawAnswerRows(submissionId: string): Promise<{ fieldId: number; fieldValue: unknown; sealedValue: string | null; raw: string }[]> {
  const result = await h.db.execute(sql`
    select f.field_id, f.field_value, f.sealed_value, row_to_json(f)::text as raw
    from o_form_field_entries f join o_form_container_entries e on e.id = f.container_entry_id
    where e.submission_id = ${Number(submissionId)} order by f.id`);
  return rowsOf(result).map((r) => ({
    fieldId: Number(r.field_id),
    fieldValue: r.field_value,
    sealedValue: (r.sealed_value as string | null) ?? null,
    raw: String(r.raw),
  }));
}

const qualification = async (submissionId: string, token: string) => {
  const res = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`, { headers: withToken(token) });
  expect(res.status).toBe(200);
  return (await json(res)).meta as { isQualified: boolean; outcome: string };
};

async function runWithBirthday(dob: string) {
  const s = await startSubmission(h, f);
  const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
  const p2 = await answerPage(h, s.token, p1.meta.nextContainerEntryId!, { q_dob: dob });
  const p3 = await answerPage(h, s.token, p2.meta.nextContainerEntryId!, { q_zip: '10001' });
  expect(p3.meta.nextContainerIdentity).toBeNull();
  return s;
}

describe('answers at rest', () => {
  it('holds no birth date, ZIP code or free text in clear; choice answers stay readable', async () => {
    const run = await runQualified(h, f, { zip: '10001' });
    const rows = await rawAnswerRows(run.submissionId);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row.raw).not.toContain('1980-06-15');
      expect(row.raw).not.toContain('1980');
      expect(row.raw).not.toContain('10001');
      expect(row.raw).not.toContain('hello');
    }
    const byField = new Map(rows.map((r) => [r.fieldId, r]));
    for (const sealedField of [f.fields.q_dob, f.fields.q_text, f.fields.q_zip]) {
      const row = byField.get(sealedField.id)!;
      expect(row.fieldValue).toBeNull();
      // The stored form names the key that sealed it.
      expect(row.sealedValue).toMatch(new RegExp(`^phi1\\.${h.phi.keyId.replace(/[-]/g, '\\-')}\\.`));
    }
    expect(byField.get(f.fields.q_choice.id)).toMatchObject({ fieldValue: 'yes', sealedValue: null });
    expect(byField.get(f.fields.q_conditions.id)).toMatchObject({ fieldValue: ['a'], sealedValue: null });
    // Two seals of one value differ (a fresh IV each): equal answers cannot be matched in the table.
    const again = await runQualified(h, f, { zip: '10001' });
    const zipAgain = (await rawAnswerRows(again.submissionId)).find((r) => r.fieldId === f.fields.q_zip.id)!;
    expect(zipAgain.sealedValue).not.toBe(byField.get(f.fields.q_zip.id)!.sealedValue);
  });

  it('still qualifies by age from sealed birth dates, on the day the server says', async () => {
    h.clock.set('2026-03-01T12:00:00Z');
    try {
      const adult = await runWithBirthday('1980-06-15');
      expect(await qualification(adult.submissionId, adult.token)).toMatchObject({ isQualified: true, outcome: 'qualified' });
      // 18 tomorrow: under the range today.
      const minor = await runWithBirthday('2008-03-02');
      expect(await qualification(minor.submissionId, minor.token)).toMatchObject({ isQualified: false, outcome: 'notQualified' });
      // 18 today: in range.
      const eighteen = await runWithBirthday('2008-03-01');
      expect(await qualification(eighteen.submissionId, eighteen.token)).toMatchObject({ isQualified: true, outcome: 'qualified' });
      // 76: over the range.
      const older = await runWithBirthday('1950-01-01');
      expect(await qualification(older.submissionId, older.token)).toMatchObject({ isQualified: false, outcome: 'notQualified' });
    } finally {
      h.clock.release();
    }
  });

  it("answers the participant's own page entry with the answers as given", async () => {
    const s = await startSubmission(h, f);
    const p1 = await answerPage(h, s.token, s.firstEntryId, { q_choice: 'yes' });
    const p2Entry = p1.meta.nextContainerEntryId!;
    await answerPage(h, s.token, p2Entry, { q_dob: '1979-02-03', q_text: 'left knee' });
    const res = await h.request('GET', `/api/o-forms/o-form-container-entries/${p2Entry}?include=oFormFieldEntries`, { headers: withToken(s.token) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.meta.answers).toEqual({ q_dob: '1979-02-03', q_text: 'left knee' });
    expect(body.included.map((r: { attributes: { fieldValue: unknown } }) => r.attributes.fieldValue).sort()).toEqual(['1979-02-03', 'left knee']);
  });

  it('pushes the screening answers opened to the record system', async () => {
    const run = await runQualified(h, f);
    expect(await qualification(run.submissionId, run.token)).toMatchObject({ isQualified: true });
    const contact = await contactLeft(h, f, run, { first_name: 'Ada', email: 'ada.sealed@example.com', phone: '212-555-0100' });
    const facts = await loadReferralFacts(h.db, h.phi, contact.id, 'referral-key');
    const answers = Object.fromEntries(facts!.answers.map((a) => [a.questionIdentity, a.value]));
    expect(answers).toEqual({ q_choice: 'yes', q_dob: '1980-06-15', q_text: 'hello', q_zip: '10001', q_conditions: ['a'] });
  });

  it('seals answers stored in clear before sealing, in place, and reads them as before', async () => {
    const s = await startSubmission(h, f);
    const entry = (containerId: number) =>
      h.db
        .insert(oFormContainerEntries)
        .values({ submissionId: Number(s.submissionId), containerId, answeredAt: new Date() })
        .returning()
        .then((r) => r[0]!.id);
    await h.db
      .update(oFormContainerEntries)
      .set({ answeredAt: new Date() })
      .where(eq(oFormContainerEntries.id, Number(s.firstEntryId)));
    const p2 = await entry(f.pages.p2.id);
    const p3 = await entry(f.pages.p3.id);
    // Rows as the product stored them before answers were sealed.
    await h.db.insert(oFormFieldEntries).values([
      { containerEntryId: Number(s.firstEntryId), fieldId: f.fields.q_choice.id, fieldValue: 'yes' },
      { containerEntryId: p2, fieldId: f.fields.q_dob.id, fieldValue: '1975-04-30' },
      { containerEntryId: p2, fieldId: f.fields.q_text.id, fieldValue: 'in clear' },
      { containerEntryId: p3, fieldId: f.fields.q_zip.id, fieldValue: '10001' },
      { containerEntryId: p3, fieldId: f.fields.q_conditions.id, fieldValue: ['b'] },
    ]);
    expect((await rawAnswerRows(s.submissionId)).some((r) => r.raw.includes('1975-04-30'))).toBe(true);

    expect(await sealClearAnswers(h.db, h.phi)).toBeGreaterThanOrEqual(3);
    const rows = await rawAnswerRows(s.submissionId);
    for (const row of rows) for (const clear of ['1975', 'in clear', '10001']) expect(row.raw).not.toContain(clear);
    expect(
      rows
        .filter((r) => r.sealedValue !== null)
        .map((r) => r.fieldId)
        .sort(),
    ).toEqual([f.fields.q_dob.id, f.fields.q_text.id, f.fields.q_zip.id].sort());
    expect(rows.find((r) => r.fieldId === f.fields.q_conditions.id)).toMatchObject({ fieldValue: ['b'], sealedValue: null });
    // Nothing left to seal: a second start changes nothing.
    expect(await sealClearAnswers(h.db, h.phi)).toBe(0);

    h.clock.set('2026-03-01T12:00:00Z');
    try {
      expect(await qualification(s.submissionId, s.token)).toMatchObject({ isQualified: true, outcome: 'qualified' });
    } finally {
      h.clock.release();
    }
  });
});

/**
 * The funnel's leads kept, on the real server and database: each kind counted beside the stages
 * (never as a contact left or a referral), a duplicate lead not counted twice, the same figures
 * from the daily rollup and from the submissions, CSV columns, a User's sponsor scope, and the
 * rollup following an erase (the duplicate then counts) and the retention purge at day 366.
 *
 * Sponsor A: L1 and L2 not qualified with the same e-mail (L2 a duplicate of L1), L3 qualified
 * with no site near Anchorage, one not-qualified run that said "No thanks", and L4 left after the
 * survey stopped under the run. Sponsor B: one not-qualified lead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { answerPage, type ParticipantFixture, runNotQualified, runQualified, startSubmission, TOKEN_HEADER } from '../../support/participantFixture';
import { leadLeft, twoSponsors } from '../participantServer';
import { parseCsv } from '../../support/csv';
import { oForms, oFormSubmissions } from '../../../server/db/schema';
import { rowsOf } from '../../../server/db/rows';
import { deleteExpiredLeads } from '../../../server/leads';
import { FUNNEL_FIGURES, FUNNEL_LEAD_FIGURES, type FunnelCounts } from '@core/model/funnel';
import { DAY_MS } from '@core/time';

let h: Harness;
let a: ParticipantFixture;
let b: ParticipantFixture;
let admin: string;
let userA: string;
const T0 = new Date('2032-03-02T10:00:00Z');

type Run = { submissionId: string; token: string };

/** Dates the submission on the clock's instant (the database stamps it with its own clock). */
async function dated(run: Run): Promise<Run> {
  await h.db
    .update(oFormSubmissions)
    .set({ created: h.clock() })
    .where(eq(oFormSubmissions.id, Number(run.submissionId)));
  return run;
}

async function datedNotQualified(f: ParticipantFixture): Promise<Run> {
  return dated(await runNotQualified(h, f));
}

/** A lead of `email`, its phone told apart by `phone`'s last digits: the same e-mail or phone is the same person. */
async function leaveLead(run: Run, email: string, phone: string, zip?: string): Promise<number> {
  const lead = await leadLeft(h, run, { values: { first_name: 'Tamsin', email, phone: `646-555-${phone}` }, acceptTerms: true, ...(zip ? { zip } : {}) });
  return lead.id;
}

let first: number;

beforeAll(async () => {
  h = await createHarness();
  h.clock.set(T0);
  ({ a, b, admin, userA } = await twoSponsors(h, 'funnel-leads-a'));

  first = await leaveLead(await datedNotQualified(a), 'tamsin@example.org', '0190');
  await leaveLead(await datedNotQualified(a), ' Tamsin@Example.org ', '0191');
  await datedNotQualified(a);
  const far = await dated(await runQualified(h, a, { zip: '99501' }));
  const sites = await json(
    await h.request('GET', `/api/o-forms/o-form-submission-sites/${far.submissionId}?zip=99501`, { headers: { [TOKEN_HEADER]: far.token } }),
  );
  expect(sites.meta.outcome).toBe('noTrialSites');
  await leaveLead(far, 'anchorage@example.org', '0192', '99501');
  const stopped = await startSubmission(h, a);
  await answerPage(h, stopped.token, stopped.firstEntryId, { q_choice: 'yes' });
  await dated(stopped);
  await h.db.update(oForms).set({ isActive: false }).where(eq(oForms.id, a.oFormId));
  await leaveLead(stopped, 'stopped@example.org', '0193');

  await leaveLead(await datedNotQualified(b), 'tamsin@example.org', '0190');
});

afterAll(async () => {
  await h.close();
});

type Row = { attributes: FunnelCounts & { group: string | null } };

async function funnel(query: string, token = admin): Promise<Row[]> {
  const res = await h.request('GET', `/api/recruitment-funnel?${query}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json(res)).data;
}

/** The lead figures summed over a grouping's rows, with the stages a lead must not move. */
const leadFigures = (rows: Row[]) =>
  Object.fromEntries(
    [...FUNNEL_LEAD_FIGURES, 'started', 'contactLeft', 'delivered'].map((figure) => [
      figure,
      rows.reduce((n, r) => n + r.attributes[figure as keyof FunnelCounts], 0),
    ]),
  );

const A = { leadsKept: 3, leadsNotQualified: 1, leadsNoTrialSites: 1, leadsNotActive: 1, started: 5, contactLeft: 0, delivered: 0 };

describe('leads kept in the funnel', () => {
  it('counts each kind beside the stages, a duplicate once, never as a contact or a referral', async () => {
    const [row] = await funnel(`sponsorId=${a.sponsorId}`);
    expect(leadFigures([row!])).toEqual(A);
  });

  it('agrees between the daily rollup (by day) and the submissions (by source), and by engagement', async () => {
    const scoped = `sponsorId=${a.sponsorId}`;
    expect(leadFigures(await funnel(`${scoped}&groupBy=day`))).toEqual(A);
    expect(leadFigures(await funnel(`${scoped}&groupBy=source`))).toEqual(A);
    expect(leadFigures(await funnel(`${scoped}&groupBy=engagement`))).toEqual(A);
    // A lead has no site: by site, every lead is in the row without one.
    const bySite = await funnel(`${scoped}&groupBy=site`);
    expect(bySite.find((r) => r.attributes.group === null)?.attributes.leadsKept).toBe(3);
  });

  it('keeps a User to their sponsors', async () => {
    expect(leadFigures(await funnel('', userA))).toEqual(A);
    expect((await funnel(''))[0]!.attributes.leadsKept).toBe(4);
  });

  it('explains each figure, and writes them as CSV columns', async () => {
    const res = await h.request('GET', `/api/recruitment-funnel?sponsorId=${a.sponsorId}`, { token: admin });
    const definitions = (await json(res)).meta.definitions;
    expect(Object.keys(definitions)).toEqual([...FUNNEL_FIGURES]);
    expect(definitions.leadsKept).toMatch(/never a referral/);
    const csv = await h.request('GET', `/api/recruitment-funnel?sponsorId=${a.sponsorId}`, { token: admin, headers: { Accept: 'text/csv' } });
    const [header, line] = parseCsv(await csv.text());
    // The lead figures follow the stages; the cost figures come after them.
    const at = header!.indexOf(FUNNEL_LEAD_FIGURES[0]);
    expect(header!.slice(at, at + 4)).toEqual([...FUNNEL_LEAD_FIGURES]);
    expect(line!.slice(at, at + 4)).toEqual(['3', '1', '1', '1']);
  });

  it('follows an erase (the duplicate then counts) and the retention purge at day 366', async () => {
    const scoped = `sponsorId=${a.sponsorId}&groupBy=day`;
    expect((await h.request('DELETE', `/api/leads/${first}`, { token: admin })).status).toBe(204);
    // The second lead of the same e-mail is no longer anyone's duplicate: still three people.
    expect(leadFigures(await funnel(scoped))).toEqual(A);
    expect(rowsOf(await h.db.execute(sql`select count(*)::int as n from leads where duplicate_of is not null`))[0]!.n).toBe(0);

    expect(await deleteExpiredLeads(h.db, new Date(T0.getTime() + 365 * DAY_MS), 365)).toBe(0);
    expect(await deleteExpiredLeads(h.db, new Date(T0.getTime() + 366 * DAY_MS), 365)).toBe(4);
    expect(leadFigures(await funnel(scoped))).toEqual({ ...A, leadsKept: 0, leadsNotQualified: 0, leadsNoTrialSites: 0, leadsNotActive: 0 });
    expect(leadFigures(await funnel(`sponsorId=${a.sponsorId}&groupBy=source`))).toEqual({
      ...A,
      leadsKept: 0,
      leadsNotQualified: 0,
      leadsNoTrialSites: 0,
      leadsNotActive: 0,
    });
  });
});

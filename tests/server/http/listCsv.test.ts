/**
 * Every list as CSV (`Accept: text/csv` on the list routes themselves): the whole filtered,
 * sorted list in the same order as the JSON pages, ids first, formula-escaped, the sponsor
 * scope applied, bad filters refused as for JSON, and one `export` event in the audit trail.
 * Also the list filters staff narrow by (active, sponsor, phase, therapeutic area, dates,
 * country, state, type) on JSON and CSV alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  auditEvents,
  engagementFiles,
  engagementTherapeuticAreas,
  engagements,
  mediaChannels,
  oFormMessages,
  siteLocations,
  sponsors,
  surveys,
  therapeuticAreas,
} from '../../../server/db/schema';
import { CSV_READ_PAGE, listCsv } from '../../../server/http/csvLists';
import { createParticipantFixture, type ParticipantFixture } from '../../support/participantFixture';
import { createHarness, json, type Harness } from '../harness';
import { parseCsv } from '../../support/csv';

let h: Harness;
let admin: string;
let a: ParticipantFixture;
let b: ParticipantFixture;
let scopedUser: string;

const CSV = { Accept: 'text/csv' };

async function csv(path: string, token = admin) {
  const res = await h.request('GET', path, { token, headers: CSV });
  const text = await res.text();
  return { res, text, rows: res.ok ? parseCsv(text) : [] };
}

/** The ids of the JSON list, read page by page exactly as a client would. */
async function jsonIds(path: string, token = admin): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const doc = await json(await h.request('GET', `${path}${sep}page=${page}&limit=1000`, { token }));
    if (!Array.isArray(doc.data)) throw new Error(`${path}: ${JSON.stringify(doc).slice(0, 200)}`);
    ids.push(...doc.data.map((r: { id: string }) => r.id));
    if (doc.data.length < 1000) return ids;
  }
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  a = await createParticipantFixture(h.db);
  b = await createParticipantFixture(h.db);
  await h.createUser({ username: 'scoped-csv', password: 'scoped-csv-pass', roles: ['User'], sponsorIds: [a.sponsorId] });
  scopedUser = await h.token('scoped-csv', 'scoped-csv-pass');
  // Rows for the lists the fixture leaves empty.
  await h.db.insert(surveys).values({ title: 'Legacy survey', globalId: 'legacy-csv', engagementId: a.engagementIds[0] });
  await h.db
    .insert(engagementFiles)
    .values({ engagementId: a.engagementIds[0], filename: 'protocol.pdf', mime: 'application/pdf', size: 10, storageKey: 'csv-test-key' });
  await h.db
    .insert(oFormMessages)
    .values({ oFormIdentity: a.oFormIdentity, oFormVersionId: a.oFormId, messageType: 'completed_contact_form', message: '<p>Welcome</p>' });
});
afterAll(async () => {
  await h.close();
});

// Every list the server answers, with the filters a list needs to be a list at all.
const LIST_ROUTES = () => [
  '/api/sponsors',
  '/api/countries',
  '/api/engagements',
  `/api/engagements-o-files?engagementId=${a.engagementIds[0]}`,
  '/api/engagements-site-locations',
  '/api/site-locations',
  '/api/screeners',
  `/api/screeners/languages-screeners?screenerId=${a.screenerId}`,
  `/api/contact-fields-screeners?screenerId=${a.screenerId}`,
  `/api/screener-surveys?screenerId=${a.screenerId}`,
  '/api/media-channels',
  `/api/media-channel-surveys?mediaChannelId=${a.mediaChannelId}`,
  '/api/users',
  '/api/languages',
  '/api/generic-messages',
  '/api/contact-fields',
  '/api/audit-events',
  '/api/rms-audits',
  '/api/campaign-types',
  '/api/roles',
  '/api/question-categories',
  '/api/target-groups',
  '/api/therapeutic-areas',
  '/api/rms-providers',
  '/api/indications',
  '/api/tags',
  '/api/surveys',
  '/api/o-forms/o-forms',
  '/api/o-forms/o-form-field-categories',
  `/api/o-forms/o-form-messages?o_form_version_id=${a.oFormId}`,
  `/api/o-forms/languages-o-forms?oFormId=${a.oFormId}`,
];

describe('Accept: text/csv on every list route', () => {
  it('answers the whole list as CSV, ids first, in the order of the JSON pages', async () => {
    const superUser = await h.createUser({ username: 'csv-super', password: 'csv-super-pass', roles: ['Super User'] });
    expect(superUser).toBeGreaterThan(0);
    const token = await h.token('csv-super', 'csv-super-pass');
    const failures: string[] = [];
    for (const path of LIST_ROUTES()) {
      const ids = await jsonIds(path, token);
      const { res, rows, text } = await csv(path, token);
      if (res.status !== 200) {
        failures.push(`${path}: ${res.status} ${text.slice(0, 200)}`);
        continue;
      }
      expect(res.headers.get('content-type'), path).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition'), path).toMatch(/^attachment; filename="[\w-]+-\d{4}-\d{2}-\d{2}\.csv"$/);
      const [header, ...data] = rows;
      expect(header?.[0], path).toBe('id');
      expect(
        data.map((r) => r[0]),
        path,
      ).toEqual(ids);
      // Only the record system's audits stay empty here (no contact was pushed).
      if (path === '/api/rms-audits') continue;
      expect(ids.length, `${path} has rows`).toBeGreaterThan(0);
      expect(header!.length, `${path} has attribute columns`).toBeGreaterThan(1);
    }
    expect(failures).toEqual([]);
  });

  it('reads past the first page: 1,100 matching sponsors, sorted, all in the file', async () => {
    await h.db.execute(
      sql`insert into sponsors (name, identification) select 'Bulk sponsor ' || lpad(n::text, 4, '0'), 'BULK' || n from generate_series(1, 1100) as n`,
    );
    const path = '/api/sponsors?searchQuery=Bulk%20sponsor&sort=-name&fields=name,identification';
    const { rows } = await csv(path);
    expect(rows[0]).toEqual(['id', 'name', 'identification']);
    expect(rows.length - 1).toBeGreaterThan(CSV_READ_PAGE);
    expect(rows.length - 1).toBe(1100);
    expect(rows[1]?.[1]).toBe('Bulk sponsor 1100');
    expect(rows[1100]?.[1]).toBe('Bulk sponsor 0001');
    expect(rows.slice(1).map((r) => r[0])).toEqual(await jsonIds(path));
  });

  it('reads the pages through the list itself: signed in once, no count, one select a page', async () => {
    await h.db.execute(sql`
      insert into audit_events (entity, entity_id, action, prev_hash, hash)
      select 'csv-pages', g::text, 'update', md5((g - 1)::text), md5(g::text) from generate_series(1, 2500) g`);
    const path = '/api/audit-events?entity=csv-pages&sort=id';
    const reads = (statements: string[]) => ({
      users: statements.filter((s) => /from "users"/.test(s)).length,
      counts: statements.filter((s) => /count\(\*\)/.test(s) && /"audit_events"/.test(s)).length,
      // The list's selects, not the count, nor the trail's read of its last hash when the export is recorded.
      pages: statements.filter((s) => /^select .* from "audit_events"/.test(s) && / limit /.test(s) && !/count\(\*\)|^select "hash"/.test(s)).length,
    });
    h.takeStatements();
    await json(await h.request('GET', path, { token: admin }));
    const page = reads(h.takeStatements());
    const { rows } = await csv(path);
    const file = reads(h.takeStatements());
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual([...rows.slice(1).map((r) => Number(r[0]))].sort((x, y) => x - y));
    expect(rows.length - 1).toBe(2500);
    expect(page.counts).toBe(1);
    // Three pages of a thousand, the sign-in checked as for one JSON page, nothing counted.
    expect(page.pages).toBe(1);
    expect(file).toEqual({ users: page.users, counts: 0, pages: 3 });
  });

  it('escapes cells a spreadsheet would run as a formula (= + - @ tab CR), and quotes commas, quotes and line breaks', async () => {
    // Every character a spreadsheet starts a formula with: = + - @, a tab and a carriage return.
    const names = ['=HYPERLINK("http://evil.example","click")', '+1+2', '-3', '@SUM(A1)', 'Plain, "quoted"\nname', '\t=cmd|calc', '\r=1+1'];
    await h.db.insert(sponsors).values(names.map((name, i) => ({ name, identification: `FORMULA${i}`, description: '=1+1' })));
    const { rows, text } = await csv('/api/sponsors?searchQuery=FORMULA&sort=identification&fields=name,description');
    expect(rows.slice(1).map((r) => r[1])).toEqual([
      `'=HYPERLINK("http://evil.example","click")`,
      "'+1+2",
      "'-3",
      "'@SUM(A1)",
      'Plain, "quoted"\nname',
      "'\t=cmd|calc",
      "'\r=1+1",
    ]);
    expect(rows.slice(1).every((r) => r[2] === "'=1+1")).toBe(true);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('reads a map (campaign parameters, hidden fields) as key: value pairs, not as JSON', () => {
    const csv = listCsv(new URLSearchParams('fields=utm,hiddenFields'), [
      { type: 'rms-audits', id: '1', attributes: { utm: { utm_source: 'news', utm_medium: 'email' }, hiddenFields: { partner_ref: 'A-7' } } },
    ]);
    expect(parseCsv(csv)).toEqual([
      ['id', 'utm', 'hiddenFields'],
      ['1', 'utm_source: news; utm_medium: email', 'partner_ref: A-7'],
    ]);
  });

  it('takes the columns from fields, in its order, after the id', async () => {
    const { rows } = await csv(`/api/engagements?sponsorId=${a.sponsorId}&fields=phase,name,sponsorName&sort=name`);
    expect(rows[0]).toEqual(['id', 'phase', 'name', 'sponsorName']);
    expect(rows.slice(1).map((r) => r[2])).toEqual([expect.stringMatching(/^Study one/), expect.stringMatching(/^Study two/)]);
    // Lists of named records read as their names.
    const screenersCsv = await csv(`/api/screeners?sponsorId=${a.sponsorId}&fields=title,engagements`);
    expect(screenersCsv.rows[1]?.[2]).toMatch(/^Study (one|two) \w+; Study (one|two) \w+$/);
  });

  it("adds a column per included relationship, by the related records' names", async () => {
    const { rows } = await csv('/api/users?include=roles&fields=username&sort=username');
    expect(rows[0]).toEqual(['id', 'username', 'roles']);
    const scoped = rows.find((r) => r[1] === 'scoped-csv');
    expect(scoped?.[2]).toBe('User');
    // Without the include, no relationship column.
    expect((await csv('/api/users?fields=username')).rows[0]).toEqual(['id', 'username']);
  });

  it("applies the sponsor scope: a User's files hold their sponsors' rows only", async () => {
    for (const [path, idOfA, idOfB] of [
      ['/api/sponsors', a.sponsorId, b.sponsorId],
      ['/api/engagements', a.engagementIds[0], b.engagementIds[0]],
      ['/api/screeners', a.screenerId, b.screenerId],
      ['/api/media-channels', a.mediaChannelId, b.mediaChannelId],
      ['/api/o-forms/o-forms', a.oFormId, b.oFormId],
    ] as const) {
      const ids = (await csv(path, scopedUser)).rows.slice(1).map((r) => r[0]);
      expect(ids, path).toContain(String(idOfA));
      expect(ids, path).not.toContain(String(idOfB));
      expect(ids, path).toEqual(await jsonIds(path, scopedUser));
    }
    // Routes the role may not read stay closed in CSV too.
    expect((await csv('/api/users', scopedUser)).res.status).toBe(403);
  });

  it('refuses bad filters and parameters with the JSON:API 400 of the list itself', async () => {
    for (const path of [
      '/api/sponsors?isActive=maybe',
      '/api/engagements?phase=V',
      '/api/engagements?startDateFrom=2026-13-01',
      '/api/media-channels?channelType=Billboard',
      '/api/sponsors?sort=password',
    ]) {
      const { res, text } = await csv(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type'), path).toBe('application/vnd.api+json');
      expect(JSON.parse(text).errors[0].source.parameter, path).toBeTruthy();
    }
  });

  it('answers 406 for a single record asked as CSV', async () => {
    const res = await h.request('GET', `/api/sponsors/${a.sponsorId}`, { token: admin, headers: CSV });
    expect(res.status).toBe(406);
    expect((await json(res)).errors[0].title).toBe('Not Acceptable');
  });

  it('records one export event per file: who, which list, which filters, how many rows', async () => {
    h.clock.set('2026-03-04T23:30:00Z');
    const token = await h.token();
    const before = await h.db.select({ id: auditEvents.id }).from(auditEvents);
    const { rows, res } = await csv(`/api/engagements?sponsorId=${a.sponsorId}&isActive=true`, token);
    h.clock.release();
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="engagements-2026-03-04.csv"');
    const events = await h.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.id} > ${Math.max(0, ...before.map((e) => e.id))}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity: 'engagements',
      entityId: null,
      action: 'export',
      actorUsername: 'admin',
      meta: expect.objectContaining({ format: 'csv', rows: rows.length - 1, query: { sponsorId: String(a.sponsorId), isActive: 'true' }, status: 200 }),
    });
    expect(events[0]!.occurredAt.toISOString()).toBe('2026-03-04T23:30:00.000Z');
    // JSON reads are not exports.
    await h.request('GET', '/api/engagements', { token: admin });
    expect((await h.db.select().from(auditEvents).where(eq(auditEvents.action, 'export'))).length).toBeGreaterThanOrEqual(1);
    const after = await h.db.select({ id: auditEvents.id }).from(auditEvents);
    expect(after.length).toBe(before.length + 1);
  });

  it('keeps JSON the answer for JSON:API clients and browsers', async () => {
    for (const accept of ['application/vnd.api+json', '*/*', 'text/csv;q=0.5, application/vnd.api+json']) {
      const res = await h.request('GET', '/api/sponsors', { token: admin, headers: { Accept: accept } });
      expect(res.headers.get('content-type'), accept).toBe('application/vnd.api+json');
    }
  });
});

describe('list filters', () => {
  const ids = async (path: string) => (await json(await h.request('GET', path, { token: admin }))).data.map((r: { id: string }) => Number(r.id));

  it('engagements by sponsor, active, phase, therapeutic area and dates', async () => {
    const [one, two] = a.engagementIds;
    await h.db.update(engagements).set({ phase: 'II', startDate: '2026-01-10', endDate: '2026-06-30' }).where(eq(engagements.id, one));
    await h.db.update(engagements).set({ phase: 'III', startDate: '2026-03-01', endDate: '2027-01-31', isActive: false }).where(eq(engagements.id, two));
    const [area] = await h.db.select().from(therapeuticAreas).limit(1);
    await h.db.insert(engagementTherapeuticAreas).values({ engagementId: two, targetId: area!.id });
    const of = (query: string) => ids(`/api/engagements?sponsorId=${a.sponsorId}&${query}`);

    expect((await ids(`/api/engagements?sponsorId=${a.sponsorId}`)).sort()).toEqual([one, two].sort());
    expect(await of('isActive=false')).toEqual([two]);
    expect(await of('phase=II')).toEqual([one]);
    expect(await of(`therapeuticAreaId=${area!.id}`)).toEqual([two]);
    expect(await of('startDateFrom=2026-02-01')).toEqual([two]);
    expect(await of('startDateTo=2026-01-10')).toEqual([one]);
    expect(await of('endDateFrom=2026-07-01')).toEqual([two]);
    expect(await of('endDateTo=2026-06-30')).toEqual([one]);
    expect(await of('startDateFrom=2026-01-01&endDateTo=2026-12-31&phase=II&isActive=true')).toEqual([one]);
    // Empty values are no filter (a cleared select).
    expect((await of('phase=&isActive=')).length).toBe(2);
    for (const bad of ['phase=V', 'therapeuticAreaId=x', 'startDateFrom=yesterday', 'endDateTo=2026-02-30', 'sponsorId=-1', 'isActive=maybe']) {
      const res = await h.request('GET', `/api/engagements?${bad}`, { token: admin });
      expect(res.status, bad).toBe(400);
      expect((await json(res)).errors[0].source.parameter, bad).toBe(bad.split('=')[0]);
    }
  });

  it('media channels by sponsor, type and active; site locations by country and state', async () => {
    await h.db.update(mediaChannels).set({ channelType: 'Social Media', isActive: false }).where(eq(mediaChannels.id, b.mediaChannelId));
    expect(await ids(`/api/media-channels?sponsorId=${b.sponsorId}`)).toEqual([b.mediaChannelId]);
    expect(await ids(`/api/media-channels?channelType=Social%20Media&sponsorId=${b.sponsorId}`)).toEqual([b.mediaChannelId]);
    expect(await ids(`/api/media-channels?channelType=Partner%20Website&sponsorId=${b.sponsorId}`)).toEqual([]);
    expect(await ids(`/api/media-channels?isActive=true&sponsorId=${b.sponsorId}`)).toEqual([]);

    const [site] = await h.db.select().from(siteLocations).where(eq(siteLocations.id, a.siteLocationId));
    expect(site?.state).toBeTruthy();
    const inState = await ids(`/api/site-locations?state=${encodeURIComponent(` ${site!.state!.toLowerCase()} `)}&limit=1000`);
    expect(inState).toContain(a.siteLocationId);
    const sameState = await h.db
      .select({ id: siteLocations.id })
      .from(siteLocations)
      .where(and(sql`lower(${siteLocations.state}) = lower(${site!.state})`));
    expect(inState.sort()).toEqual(sameState.map((s) => s.id).sort());
    expect(await ids('/api/site-locations?state=Nowhere')).toEqual([]);
    expect((await h.request('GET', `/api/site-locations?state=${'x'.repeat(300)}`, { token: admin })).status).toBe(400);
  });

  it('versioned and legacy surveys by sponsor and active; screeners by sponsor', async () => {
    expect(await ids(`/api/o-forms/o-forms?sponsorId=${a.sponsorId}`)).toEqual([a.oFormId]);
    expect(await ids(`/api/o-forms/o-forms?sponsorId=${a.sponsorId}&isActive=false`)).toEqual([]);
    expect(await ids(`/api/screeners?sponsorId=${b.sponsorId}`)).toEqual([b.screenerId]);
    expect((await h.request('GET', '/api/surveys?sponsorId=abc', { token: admin })).status).toBe(400);
    expect((await h.request('GET', `/api/surveys?sponsorId=${a.sponsorId}`, { token: admin })).status).toBe(200);
  });
});

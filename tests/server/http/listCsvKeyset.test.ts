/**
 * A list's CSV read by keyset: each page of a thousand continues after the previous page's last
 * row in the list's own order, so a file over several pages holds every row once in the order of
 * the JSON pages, rows written at the top of the order while it streams neither repeat a row nor
 * make one missing, and NULLs, mixed directions and ties on the sort (broken by id) page the
 * same, through a joined list (sponsors, their country's name by left join) and a single table's
 * (the audit trail).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNull, like, sql } from 'drizzle-orm';
import { auditEvents, sponsors } from '../../../server/db/schema';
import { tablePage, type Keyset } from '../../../server/http/list';
import { createHarness, json, type Harness } from '../harness';
import { parseCsv } from '../../support/csv';

let h: Harness;
let admin: string;

/** The CSV reads pages this size here (a thousand in the product): the same paging, a tenth of the rows. */
const READ_PAGE = 100;
const ROWS = 210;

beforeAll(async () => {
  h = await createHarness({}, { csvReadPage: READ_PAGE });
  admin = await h.token();
});
afterAll(async () => {
  await h.close();
});

/** Sponsors named `${prefix} 0001` to `${prefix} 0210`, in one statement. */
async function bulkSponsors(prefix: string) {
  await h.db.execute(
    sql`insert into sponsors (name, identification) select ${prefix} || ' ' || lpad(g::text, 4, '0'), ${prefix} || '-' || g from generate_series(1, ${ROWS}) g`,
  );
}

/** ROWS audit events of `entity`: seven instants a microsecond-precise step apart (thirty ties each, across pages), a NULL actor every third. */
async function eventsWithNulls(entity: string) {
  await h.db.execute(sql`
    insert into audit_events (occurred_at, actor_username, entity, entity_id, action, prev_hash, hash)
    select timestamptz '2026-01-01 00:00:00.000001+00' + (g % 7) * interval '0.000333 second',
           case when g % 3 = 0 then null else 'user' || (g % 5) end, ${entity}, g::text, 'update', md5((g - 1)::text), md5(g::text)
    from generate_series(1, ${ROWS}) g`);
}

/** The ids of the JSON list, read page by page (by offset, their contract) as a client would. */
async function jsonIds(path: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const doc = await json(await h.request('GET', `${path}&page=${page}&limit=1000`, { token: admin }));
    if (!Array.isArray(doc.data)) throw new Error(`${path}: ${JSON.stringify(doc).slice(0, 200)}`);
    ids.push(...doc.data.map((r: { id: string }) => r.id));
    if (doc.data.length < 1000) return ids;
  }
}

/**
 * The CSV's ids, read as a slow client would: the first chunk of rows, then `meanwhile` (writes
 * while the export is open), then the rest.
 */
async function csvIds(path: string, meanwhile: () => Promise<void> = async () => {}): Promise<string[]> {
  const res = await h.request('GET', path, { token: admin, headers: { Accept: 'text/csv' } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  // The header, then a chunk that holds rows (the first page, read before the answer began).
  while (!done && text.split('\r\n').length < 3) {
    const chunk = await reader.read();
    done = chunk.done;
    if (chunk.value) text += decoder.decode(chunk.value, { stream: true });
  }
  const before = text.split('\r\n').length - 2;
  expect(before).toBeGreaterThan(0);
  // Not the whole file yet: the writes below land between pages.
  expect(before).toBeLessThan(ROWS);
  await meanwhile();
  while (!done) {
    const chunk = await reader.read();
    done = chunk.done;
    if (chunk.value) text += decoder.decode(chunk.value, { stream: true });
  }
  const [header, ...rows] = parseCsv(text);
  expect(header?.[0]).toBe('id');
  return rows.map((r) => r[0]!);
}

const once = (ids: readonly string[]) => new Set(ids).size === ids.length;

/** The list's CSV, in each sort: every one of its ROWS rows once, in the order of its JSON pages. */
async function expectCsvInJsonOrder(pathOf: (sort: string) => string, sorts: readonly string[]) {
  for (const sort of sorts) {
    const expected = await jsonIds(pathOf(sort));
    expect(expected.length, sort).toBe(ROWS);
    const ids = await csvIds(pathOf(sort));
    expect(once(ids), sort).toBe(true);
    expect(ids, sort).toEqual(expected);
  }
}

describe('CSV pages read by keyset', () => {
  it('lists every row of a list over several pages once, in the order of the JSON pages', async () => {
    await bulkSponsors('Paged sponsor');
    for (const sort of ['name', '-name', '-isActive,-identification']) {
      const path = `/api/sponsors?searchQuery=Paged%20sponsor&sort=${sort}`;
      const expected = await jsonIds(path);
      expect(expected.length).toBe(ROWS);
      expect(ROWS).toBeGreaterThan(2 * READ_PAGE);
      const ids = await csvIds(path);
      expect(once(ids), sort).toBe(true);
      expect(ids, sort).toEqual(expected);
    }
  });

  it('repeats no row when rows are inserted at the top of the order between pages', async () => {
    await bulkSponsors('Growing sponsor');
    const path = '/api/sponsors?searchQuery=Growing%20sponsor&sort=name';
    const expected = await jsonIds(path);
    const ids = await csvIds(path, async () => {
      // 150 sponsors ahead of every row the file has read so far (0000 sorts before 0001).
      await h.db.execute(
        sql`insert into sponsors (name, identification) select 'Growing sponsor 0000-' || lpad(g::text, 3, '0'), 'Growing-new-' || g from generate_series(1, 150) g`,
      );
    });
    expect(once(ids)).toBe(true);
    // Read by offset, the later pages would start 150 rows early and repeat them.
    expect(ids).toEqual(expected);
    expect((await jsonIds(path)).length).toBe(ROWS + 150);
  });

  it('skips no row when rows already written are deleted between pages', async () => {
    await bulkSponsors('Shrinking sponsor');
    const path = '/api/sponsors?searchQuery=Shrinking%20sponsor&sort=-name';
    const expected = await jsonIds(path);
    const ids = await csvIds(path, async () => {
      // The first 50 rows of the order, written already.
      await h.db.execute(sql`delete from sponsors where name like 'Shrinking sponsor %' and name >= 'Shrinking sponsor 0161'`);
    });
    expect(once(ids)).toBe(true);
    // Read by offset, the later pages would start 50 rows late and leave those out.
    expect(ids).toEqual(expected);
    expect((await jsonIds(path)).length).toBe(ROWS - 50);
  });

  it('pages a left-joined column with NULLs, in either direction and mixed, its ties broken by id', async () => {
    // 116 sponsors without a country (NULL countryName), more than a page; the others spread over four countries.
    await bulkSponsors('Nullable sponsor');
    await h.db.execute(sql`
      update sponsors s set
        country_id = case when n.g % 3 = 0 or n.g > 140 then null else (array(select id from countries order by id limit 4))[1 + n.g % 4] end,
        is_active = n.g % 2 = 0
      from (select id, row_number() over (order by id) as g from sponsors where name like 'Nullable sponsor %') n
      where s.id = n.id`);
    const [nulls] = await h.db
      .select({ n: count() })
      .from(sponsors)
      .where(and(like(sponsors.name, 'Nullable sponsor %'), isNull(sponsors.countryId)));
    expect(nulls?.n).toBeGreaterThan(READ_PAGE);
    await expectCsvInJsonOrder(
      (sort) => `/api/sponsors?searchQuery=Nullable%20sponsor&sort=${sort}`,
      ['countryName', '-countryName', 'countryName,-isActive', '-countryName,isActive', 'isActive,-countryName', '-isActive,countryName,-name'],
    );
  });

  it("pages a table's own nullable column and a timestamp's microseconds, mixed directions, ties broken by id", async () => {
    await eventsWithNulls('keyset-nulls');
    await expectCsvInJsonOrder(
      (sort) => `/api/audit-events?entity=keyset-nulls&sort=${sort}`,
      ['actorUsername', '-actorUsername', '-occurredAt', 'occurredAt', 'actorUsername,-occurredAt', '-actorUsername,occurredAt', '-occurredAt,-actorUsername'],
    );
  });

  it('seeks with the id tie-break descending too (the newest first among equals, as leads and messages list)', async () => {
    const sorts = { actorUsername: auditEvents.actorUsername, occurredAt: auditEvents.occurredAt };
    await eventsWithNulls('keyset-desc');
    const where = eq(auditEvents.entity, 'keyset-desc');
    for (const sort of [[{ field: 'actorUsername' as const, desc: false }], [{ field: 'occurredAt' as const, desc: true }], []]) {
      const offsetIds: number[] = [];
      const keysetIds: number[] = [];
      const keyset: Keyset = {};
      for (let offset = 0; offset < ROWS + 70; offset += 70) {
        const page = { sort, limit: 70, offset, count: false };
        offsetIds.push(...(await tablePage(h.db, auditEvents, page, { where, sorts, id: auditEvents.id, idDesc: true })).rows.map((r) => r.id));
        keysetIds.push(...(await tablePage(h.db, auditEvents, { ...page, keyset }, { where, sorts, id: auditEvents.id, idDesc: true })).rows.map((r) => r.id));
        keyset.after = keyset.next;
      }
      expect(offsetIds.length).toBe(ROWS);
      expect(keysetIds).toEqual(offsetIds);
      if (sort.length === 0) expect(offsetIds).toEqual([...offsetIds].sort((x, y) => y - x));
    }
  });
});

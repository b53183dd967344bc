/**
 * Queries prepared with a name (server/db/prepared.ts) run as named statements on both
 * databases — on PGlite through server/db/pglitePrepared.ts, not drizzle's driver — and must
 * answer exactly what the same query answers unprepared: the same rows and value types, the
 * database's errors with their codes, and the transaction rules of an unprepared query.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/open';
import { rowsOf } from '../../../server/db/rows';
import { pgErrorCode } from '../../../server/http/sql';
import { createHarness, type Harness } from '../harness';

const kind = process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';

const param = sql.placeholder;

/** One probe row's columns as drizzle maps them: ints as numbers, timestamps as strings, json and arrays parsed. */
const probeColumns = {
  id: sql<number>`id`,
  name: sql<string>`name`,
  at: sql<string>`at`,
  day: sql<string>`day`,
  data: sql<unknown>`data`,
  tags: sql<number[]>`tags`,
  big: sql<string>`big`,
  flag: sql<boolean | null>`flag`,
};

const selectProbe = (db: Db) =>
  db
    .select(probeColumns)
    .from(sql`prepared_probe`)
    .where(sql`name = ${param('name')} or id = any(${param('ids')}::int[])`)
    .orderBy(sql`id`);

describe('named prepared queries', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    await h.db.execute(sql`create table prepared_probe (
      id serial primary key, name text unique not null, at timestamptz not null default '2026-01-02T03:04:05Z',
      day date not null default '2026-01-02', data jsonb, tags int[], big bigint default 9007199254740993, flag boolean)`);
    await h.db.execute(sql`insert into prepared_probe (name, data, tags, flag) values ('a', '{"x":[1,"two",null]}', '{1,2,3}', true), ('b', null, '{}', null)`);
  });
  afterEach(async () => {
    await h.close();
  });

  it('answer the rows, and value types, the same query answers unprepared, call after call', async () => {
    const prepared = selectProbe(h.db).prepare('test_select_probe');
    const expected = await selectProbe(h.db).execute({ name: 'a', ids: '{2}' });
    expect(expected).toEqual([
      { id: 1, name: 'a', at: expect.any(String), day: '2026-01-02', data: { x: [1, 'two', null] }, tags: [1, 2, 3], big: expect.anything(), flag: true },
      { id: 2, name: 'b', at: expect.any(String), day: '2026-01-02', data: null, tags: [], big: expect.anything(), flag: null },
    ]);
    // Past PostgreSQL's five custom plans, when a named statement may switch to its generic plan.
    for (let i = 0; i < 8; i++) expect(await prepared.execute({ name: 'a', ids: '{2}' })).toEqual(expected);
    expect(await prepared.execute({ name: 'none', ids: '{}' })).toEqual([]);
    expect(await prepared.execute({ name: 'b', ids: null })).toEqual([expected[1]]);
  });

  it('refuse what the database refuses, with its error code, and run again after it', async () => {
    const made = h.db
      .$with('made', { one: sql<number>`one` })
      .as(sql`insert into prepared_probe (name, data, tags) values (${param('name')}, ${param('data')}::jsonb, ${param('tags')}::int[]) returning 1 as one`);
    const prepared = h.db.with(made).select({ n: sql<number>`count(*)::int` }).from(made).prepare('test_insert_probe');
    expect(await prepared.execute({ name: 'c', data: '{"y":1}', tags: '{4}' })).toEqual([{ n: 1 }]);
    const refused = await prepared.execute({ name: 'c', data: null, tags: null }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(pgErrorCode(refused)).toEqual({ code: '23505', constraint: 'prepared_probe_name_key' });
    const badValue = await prepared.execute({ name: 'd', data: 'not json', tags: null }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(pgErrorCode(badValue).code).toBe('22P02');
    expect(await prepared.execute({ name: 'd', data: '[]', tags: '{5,6}' })).toEqual([{ n: 1 }]);
    const rows = rowsOf(await h.db.execute(sql`select name, data, tags from prepared_probe where name in ('c', 'd') order by name`));
    expect(rows).toEqual([
      { name: 'c', data: { y: 1 }, tags: [4] },
      { name: 'd', data: [], tags: [5, 6] },
    ]);
  });

  it('wait for a transaction in progress and see what it committed, and run inside one', async () => {
    const prepared = selectProbe(h.db).prepare('test_select_probe_tx');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted = false;
    const tx = h.db.transaction(async (t) => {
      await t.execute(sql`insert into prepared_probe (name) values ('in-tx')`);
      inserted = true;
      await held;
      // Prepared (and named) on the transaction's own handle: runs inside it.
      const inside = await selectProbe(t as unknown as Db)
        .prepare('test_select_probe_in_tx')
        .execute({ name: 'in-tx', ids: null });
      expect(inside.map((r) => r.name)).toEqual(['in-tx']);
    });
    while (!inserted) await new Promise((resolve) => setTimeout(resolve, 5));
    const outside = prepared.execute({ name: 'in-tx', ids: null });
    release();
    await tx;
    // On PGlite (one connection) the query waited for the commit; on PostgreSQL it saw the rows
    // committed when it ran, which is after the insert or before the commit.
    const rows = await outside;
    if (kind === 'pglite') expect(rows.map((r) => r.name)).toEqual(['in-tx']);
    expect(await prepared.execute({ name: 'in-tx', ids: null })).toHaveLength(1);
  });

  // PGlite's own mechanism: on PostgreSQL a statement is prepared per pooled connection, by node-postgres.
  if (kind === 'pglite')
    it('are parsed once into a named statement of the embedded database', async () => {
      const prepared = selectProbe(h.db).prepare('test_select_probe_named');
      await prepared.execute({ name: 'a', ids: null });
      await prepared.execute({ name: 'b', ids: null });
      const statements = rowsOf(await h.db.execute(sql`select statement from pg_prepared_statements where statement like '%prepared_probe%' and not from_sql`));
      expect(statements).toHaveLength(1);
    });
});

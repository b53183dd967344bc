/**
 * Prepared queries, one per database handle: drizzle builds their SQL once instead of on every
 * call, and PostgreSQL parses and plans them once per connection (a named statement) — for the
 * few queries every participant request runs.
 */
import type { Db } from './open';
import { currentHandle } from './transactionScope';

export function preparedQuery<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const byDb = new WeakMap<Db, Q>();
  return (scoped) => {
    // Built on the handle it runs on: one made inside a transaction belongs to that transaction.
    const db = currentHandle(scoped);
    let query = byDb.get(db);
    if (query === undefined) byDb.set(db, (query = build(db)));
    return query;
  };
}

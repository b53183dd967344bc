/**
 * One transaction around a stretch of asynchronous work that was not written for it: every query
 * the work makes through the scope's `db` (a route's handler, a read of the same app, the audit
 * record) joins the transaction, and a `db.transaction(…)` inside it becomes a savepoint. The
 * audit trail wraps a staff update or deletion in one, so the old values it records are read in
 * the write's own transaction.
 *
 * The transaction follows the async context (AsyncLocalStorage), not the call stack; once it has
 * ended, work that outlived it (something started and not awaited) falls back to the database.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Tx } from './open';

export interface TransactionScope {
  /** The database as the app's routes are given it: the open transaction of the current async context, else the database itself. */
  readonly db: Db;
  /** Runs `work` in one transaction that every query made through `db` in its async context joins; it rolls back when `work` throws. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

/** The handle a query made through a scope's `db` now runs on (the database, or the open transaction). */
const CURRENT = Symbol('current handle');

/**
 * What `db` stands for at this moment: a scope's transaction while one is open, else `db`. For
 * what is kept per handle (prepared queries): kept against the scope's `db` it would outlive the
 * transaction it was made in.
 */
export function currentHandle(db: Db): Db {
  return (db as Db & { [CURRENT]?: Db })[CURRENT] ?? db;
}

export function transactionScope(database: Db): TransactionScope {
  const store = new AsyncLocalStorage<{ tx: Tx; open: boolean }>();
  const current = (): Db => {
    const scope = store.getStore();
    // A transaction is a Db for every query the routes make (select, insert, execute, transaction).
    return scope?.open ? (scope.tx as unknown as Db) : database;
  };
  const db = new Proxy(database, {
    get(_target, property) {
      const handle = current();
      if (property === CURRENT) return handle;
      const value: unknown = Reflect.get(handle, property, handle);
      return typeof value === 'function' ? value.bind(handle) : value;
    },
  });
  // Node 20's AsyncLocalStorage, once it has run, tracks every promise the process makes (a
  // promise-heavy loop took three times the CPU): it is switched off whenever no transaction is open.
  let open = 0;
  return {
    db,
    run: (work) => {
      open++;
      // Inside another scope's transaction, a savepoint of it.
      return current()
        .transaction(async (tx) => {
          const scope = { tx, open: true };
          try {
            return await store.run(scope, work);
          } finally {
            scope.open = false;
          }
        })
        .finally(() => {
          if (--open === 0) store.disable();
        });
    },
  };
}

/**
 * A transaction scope: what the work inside it writes through the scope's handle is one
 * transaction (kept or rolled back whole), a scope inside another is a savepoint, and work that
 * outlives its transaction goes to the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sponsors } from '../../../server/db/schema';
import { transactionScope } from '../../../server/db/transactionScope';
import { preparedQuery } from '../../../server/db/prepared';
import { createHarness, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const add = (db: Harness['db'], name: string) => db.insert(sponsors).values({ name, identification: name }).returning({ id: sponsors.id });
const named = async (name: string) => (await h.db.select().from(sponsors).where(eq(sponsors.name, name))).length;

describe('a transaction scope', () => {
  it('keeps what the work wrote when it ends, and nothing of it when it throws', async () => {
    const scope = transactionScope(h.db);
    await scope.run(async () => {
      await add(scope.db, 'Scope kept');
    });
    await expect(
      scope.run(async () => {
        await add(scope.db, 'Scope dropped');
        // Seen inside, through the scope's handle: the same transaction.
        expect((await scope.db.select().from(sponsors).where(eq(sponsors.name, 'Scope dropped'))).length).toBe(1);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await named('Scope kept')).toBe(1);
    expect(await named('Scope dropped')).toBe(0);
  });

  it('turns a transaction inside it into a savepoint, and a scope inside a scope too', async () => {
    const scope = transactionScope(h.db);
    await scope.run(async () => {
      await add(scope.db, 'Outer kept');
      await expect(
        scope.db.transaction(async (tx) => {
          await add(tx as unknown as Harness['db'], 'Inner dropped');
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      await expect(
        scope.run(async () => {
          await add(scope.db, 'Nested dropped');
          throw new Error('nested');
        }),
      ).rejects.toThrow('nested');
    });
    expect(await named('Outer kept')).toBe(1);
    expect(await named('Inner dropped')).toBe(0);
    expect(await named('Nested dropped')).toBe(0);
  });

  it('sends work that outlives its transaction to the database', async () => {
    const scope = transactionScope(h.db);
    let later: Promise<unknown> = Promise.resolve();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await scope.run(async () => {
      // Started inside, not awaited: it writes after the transaction has ended.
      later = gate.then(() => add(scope.db, 'Outlived'));
    });
    release();
    await later;
    expect(await named('Outlived')).toBe(1);
  });

  it('builds a prepared query inside a transaction for that transaction only', async () => {
    const scope = transactionScope(h.db);
    const countNamed = preparedQuery((db) => db.select({ id: sponsors.id }).from(sponsors).where(eq(sponsors.name, 'Prepared')));
    await scope
      .run(async () => {
        await add(scope.db, 'Prepared');
        expect(await countNamed(scope.db).execute()).toHaveLength(1);
        throw new Error('rolled back');
      })
      .catch(() => {});
    // Made outside, it runs on the database, where the rolled-back row never was.
    expect(await countNamed(scope.db).execute()).toHaveLength(0);
  });
});

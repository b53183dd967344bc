/**
 * Writes that arrive together go to the database together (group commit): each write waits in a
 * queue until the next turn of the event loop, and whatever has gathered by then — or while the
 * batches already sent are in flight — is written as one batch, one statement and one round
 * trip, by `many`. Each caller is answered with its own result, and only once the batch's
 * statement returned, i.e. committed: nothing is acknowledged that a crash could lose.
 *
 * `many` is all or nothing (one statement). When it fails — a constraint one item breaks, a
 * deadlock — nothing of the batch was written, and its items are written again one at a time with
 * `one`, so only the item at fault fails. A batch of one is written with `one` straight away.
 * Items with the same key never share a batch (a later one waits for the next), so `many` can
 * rely on one item per key.
 */
import type { Db } from './open';
export interface BatchedWrites<I, O> {
  /** Items that share a key are written in separate batches, in the order they came. */
  keyOf(item: I): string | number;
  /** At most this many items a batch. */
  maxBatch: number;
  /** At most this many batches sent at once; the rest wait in the queue and go as one. */
  maxInFlight: number;
  one(item: I): Promise<O>;
  /** One result per item, in the items' order; all or nothing. */
  many(items: readonly I[]): Promise<O[]>;
}

interface Waiting<I, O> {
  item: I;
  resolve(result: O): void;
  reject(error: unknown): void;
}

export function batchedWrites<I, O>(options: BatchedWrites<I, O>): (item: I) => Promise<O> {
  const queue: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const schedule = () => {
    if (scheduled || inFlight >= options.maxInFlight || queue.length === 0) return;
    scheduled = true;
    setImmediate(drain);
  };

  function drain() {
    scheduled = false;
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = take();
      inFlight++;
      void write(batch).finally(() => {
        inFlight--;
        schedule();
      });
    }
  }

  /** The oldest items, at most maxBatch, no two with one key; the others keep their places. */
  function take(): Waiting<I, O>[] {
    const keys = new Set<string | number>();
    const batch: Waiting<I, O>[] = [];
    for (let i = 0; i < queue.length && batch.length < options.maxBatch; ) {
      const key = options.keyOf(queue[i]!.item);
      if (keys.has(key)) {
        i++;
        continue;
      }
      keys.add(key);
      batch.push(...queue.splice(i, 1));
    }
    return batch;
  }

  async function write(batch: Waiting<I, O>[]) {
    if (batch.length > 1) {
      let results: O[] | null = null;
      try {
        results = await options.many(batch.map((w) => w.item));
      } catch {
        // Nothing of the batch was written: each item again on its own, below.
      }
      if (results) {
        const error = results.length === batch.length ? null : new Error(`a batch of ${batch.length} answered ${results.length} results`);
        batch.forEach((w, i) => (error ? w.reject(error) : w.resolve(results[i]!)));
        return;
      }
    }
    for (const w of batch) {
      try {
        w.resolve(await options.one(w.item));
      } catch (error) {
        w.reject(error);
      }
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}

/**
 * batchedWrites with one queue per database handle, made on its first write: the server has one,
 * a test or a bench process may open several.
 */
export function batchedWritesPerDb<I, O>(options: (db: Db) => BatchedWrites<I, O>): (db: Db, item: I) => Promise<O> {
  const writers = new WeakMap<Db, (item: I) => Promise<O>>();
  return (db, item) => {
    let write = writers.get(db);
    if (!write) writers.set(db, (write = batchedWrites(options(db))));
    return write(item);
  };
}

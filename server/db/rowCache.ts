/**
 * What a process keeps of rows that never change once written (approved survey structures, a
 * participant's page entries): a bounded map per database handle, least recently used out
 * first. Per handle, because test harnesses open several databases whose ids overlap.
 */
import type { Db } from './open';

export interface Kept<K, V> {
  get(db: Db, key: K): V | undefined;
  set(db: Db, key: K, value: V): void;
  /** Drops every entry `drop` picks. */
  deleteWhere(db: Db, drop: (key: K, value: V) => boolean): void;
}

export function keptPerDatabase<K, V>(size: number): Kept<K, V> {
  const byDb = new WeakMap<Db, Map<K, V>>();
  return {
    get(db, key) {
      const kept = byDb.get(db);
      const value = kept?.get(key);
      if (kept && value !== undefined) {
        kept.delete(key);
        kept.set(key, value);
      }
      return value;
    },
    set(db, key, value) {
      let kept = byDb.get(db);
      if (!kept) byDb.set(db, (kept = new Map()));
      kept.delete(key);
      if (kept.size >= size) kept.delete(kept.keys().next().value!);
      kept.set(key, value);
    },
    deleteWhere(db, drop) {
      const kept = byDb.get(db);
      if (!kept) return;
      for (const [key, value] of kept) if (drop(key, value)) kept.delete(key);
    },
  };
}

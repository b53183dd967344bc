/**
 * Bulk actions on selected rows: each row goes through the API on its own (its own rules, scope
 * and audit event), a few at a time, and each row's outcome is kept so the screen can say which
 * ones failed and why.
 */
import { ApiError } from '@core/api/client';

export interface BulkAction<T> {
  id: string;
  /** The button, e.g. 'Deactivate'. */
  label: string;
  /** What happened to the rows, for messages: 'deactivated'. */
  done: string;
  run: (row: T) => Promise<unknown>;
  /** Rows the action would not change (already active), left alone and not counted. */
  skip?: (row: T) => boolean;
  /** Puts a changed row back; offered as Undo in the success toast. */
  undo?: (row: T) => Promise<unknown>;
  danger?: boolean;
}

export interface BulkOptions<T> {
  /** 'sponsor' and 'sponsors'. */
  noun: readonly [one: string, many: string];
  /** How a row is named in results, e.g. the sponsor's name. */
  label: (row: T) => string;
  actions: readonly BulkAction<T>[];
}

export interface BulkFailure<T> {
  row: T;
  message: string;
}

export interface BulkOutcome<T> {
  done: T[];
  failed: BulkFailure<T>[];
  skipped: number;
}

export const BULK_CONCURRENCY = 4;
export const ROW_FAILED = 'Could not save data';

export const count = (n: number, noun: readonly [string, string]) => `${n} ${n === 1 ? noun[0] : noun[1]}`;

/** Runs `action` over `rows`, at most BULK_CONCURRENCY at a time, reporting progress after each row. */
export async function runBulk<T>(
  rows: readonly T[],
  run: (row: T) => Promise<unknown>,
  onProgress: (finished: number) => void = () => undefined,
): Promise<{ done: T[]; failed: BulkFailure<T>[] }> {
  const done: T[] = [];
  const failed: BulkFailure<T>[] = [];
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++] as T;
      try {
        await run(row);
        done.push(row);
      } catch (error) {
        failed.push({ row, message: error instanceof ApiError ? error.message : ROW_FAILED });
      }
      onProgress(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, rows.length) }, worker));
  // Results in the order the rows were given, whatever order they finished in.
  const order = new Map(rows.map((row, i) => [row, i]));
  const byOrder = (a: T, b: T) => (order.get(a) ?? 0) - (order.get(b) ?? 0);
  return { done: done.sort(byOrder), failed: failed.sort((a, b) => byOrder(a.row, b.row)) };
}

/** Activate and Deactivate through the resource's update, each undone by the other. */
export function activationActions<T extends { id: string; isActive: boolean }>(
  update: (id: string, patch: { isActive: boolean }) => Promise<unknown>,
): BulkAction<T>[] {
  return [
    {
      id: 'activate',
      label: 'Activate',
      done: 'activated',
      run: (row) => update(row.id, { isActive: true }),
      skip: (row) => row.isActive,
      undo: (row) => update(row.id, { isActive: false }),
    },
    {
      id: 'deactivate',
      label: 'Deactivate',
      done: 'deactivated',
      run: (row) => update(row.id, { isActive: false }),
      skip: (row) => !row.isActive,
      undo: (row) => update(row.id, { isActive: true }),
    },
  ];
}

/** Delete through the resource's remove. Deletes cannot be undone (the server keeps nothing back). */
export const deleteAction = <T extends { id: string }>(remove: (id: string) => Promise<unknown>): BulkAction<T> => ({
  id: 'delete',
  label: 'Delete',
  done: 'deleted',
  run: (row) => remove(row.id),
  danger: true,
});

/** Activate, Deactivate and Delete for the selected records of a resource, through its API. */
export const activateAndDeleteBulk = <T extends { id: string; isActive: boolean }>(
  api: { update: (id: string, patch: { isActive: boolean }) => Promise<unknown>; remove: (id: string) => Promise<unknown> },
  noun: BulkOptions<T>['noun'],
  label: BulkOptions<T>['label'],
): BulkOptions<T> => ({ noun, label, actions: [...activationActions<T>(api.update), deleteAction<T>(api.remove)] });

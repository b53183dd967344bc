/**
 * When an outbox tries a failed item again: its retry schedule lists the seconds to wait after
 * each failed attempt, and an item whose schedule has run out is not tried again. Knows no
 * area: the record-system deliveries and the messages both retry by it, and both workers'
 * options start from what every outbox's worker reads (OutboxWorkerOptions).
 */
import { MAX_RETRY_WAIT_SECONDS } from '../config';
import { nowOf, type Deps } from '../context';
import type { Db } from '../db/open';
import type { Logger } from '../log';
import { phiOf, type PhiCipher } from '../security/phi';

/** What every outbox's worker reads; its own options extend these. */
export interface OutboxWorkerOptions {
  db: Db;
  phi: PhiCipher;
  /** Seconds before each retry (retryDueAt). */
  schedule: readonly number[];
  /** Given, so tests state the instants they mean. */
  clock: () => Date;
  log: Logger;
}

/** A worker's OutboxWorkerOptions from the process's deps, retrying on `schedule`. */
export const outboxWorkerOptionsOf = (deps: Deps, schedule: readonly number[]): OutboxWorkerOptions => ({
  db: deps.db,
  phi: phiOf(deps),
  schedule,
  clock: () => nowOf(deps),
  log: deps.log,
});

/**
 * When the attempt after failed attempt `attempt` (from 1) is due, waiting at least
 * `atLeastSeconds` (a Retry-After) and never longer than MAX_RETRY_WAIT_SECONDS; null when
 * the failure is final or the schedule has no wait left.
 */
export function retryDueAt(
  schedule: readonly number[],
  attempt: number,
  failure: { retryable: boolean; retryAfterSeconds?: number | null },
  now: Date,
): Date | null {
  if (!failure.retryable) return null;
  const wait = schedule[attempt - 1];
  if (wait === undefined) return null;
  const seconds = Math.min(Math.max(wait, failure.retryAfterSeconds ?? 0), MAX_RETRY_WAIT_SECONDS);
  return new Date(now.getTime() + seconds * 1000);
}

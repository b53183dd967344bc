/**
 * When an outbox tries a failed item again: its retry schedule lists the seconds to wait after
 * each failed attempt, and an item whose schedule has run out is not tried again. Knows no
 * area: the record-system deliveries and the messages both retry by it.
 */
import { MAX_RETRY_WAIT_SECONDS } from '../config';

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

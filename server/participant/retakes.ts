/**
 * One run per participant and channel, without a login. After a run's outcome (its
 * `finished_at`: the qualification found the complete path qualified or not qualified), the
 * channel's `retakeWindowDays` says for how long the same browser is shown that outcome again
 * rather than a fresh survey (GET /o-form-submission-outcome/{id}); 0 allows retakes (testing
 * channels), and a run without a channel has no window.
 *
 * Browser storage is easy to clear, so the server also flags a run started from the same client
 * address and channel as a run finished within the window: `possible_retake`. The address is
 * kept only as a keyed hash (`client_match`, server/security/contactMatch.ts), never itself.
 * Every instant here is the server's clock (injected), never the database's.
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { mediaChannels, oFormSubmissions } from '../db/schema';
import { DAY_MS } from '@core/time';

export interface RetakeWindow {
  /** The channel's window in days (0: retakes allowed, or no channel). */
  days: number;
  /** When the window ends: the outcome's instant plus the window; null without an outcome or a window. */
  endsAt: Date | null;
  /** Whether `now` falls inside it: a reload shows the outcome again rather than a fresh survey. */
  within: boolean;
}

/** The window of a run that reached its outcome at `finishedAt` (null: not yet), on a channel with `days`, at `now`. Pure. */
export function retakeWindow(finishedAt: Date | null, days: number, now: Date): RetakeWindow {
  if (finishedAt === null || days <= 0) return { days: Math.max(0, days), endsAt: null, within: false };
  const endsAt = new Date(finishedAt.getTime() + days * DAY_MS);
  return { days, endsAt, within: now.getTime() < endsAt.getTime() };
}

/**
 * The condition (SQL boolean) that a run about to start on channel `channelId` from a client
 * whose keyed hash is `clientMatch` is a possible retake at `now`: a run of the same channel and
 * hash finished within the channel's window. False without a channel or a hash; usable inside
 * a prepared statement (placeholders).
 */
export function possibleRetakeCondition(channelId: Placeholder | SQL, clientMatch: Placeholder | SQL, now: Placeholder | SQL): SQL {
  return sql`exists (
    select 1 from ${oFormSubmissions} prior
    join ${mediaChannels} ch on ch.id = prior.media_channel_id
    where prior.media_channel_id = ${channelId}::int
      and prior.client_match = ${clientMatch}::text
      and ch.retake_window_days > 0
      and prior.finished_at is not null
      and prior.finished_at > ${now}::timestamptz - make_interval(days => ch.retake_window_days)
      and prior.finished_at <= ${now}::timestamptz)`;
}

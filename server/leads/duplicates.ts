/**
 * Duplicate leads: the same person (the same e-mail address or phone number, by the keyed hashes
 * contacts use, participant/duplicates.ts) leaving a lead for an engagement an earlier lead of
 * theirs is kept for. The later lead is kept, marked `duplicate_of` the first; leads have no
 * window of their own: retention (./retention.ts) bounds how far back they reach.
 */
import { and, asc, isNull, or, sql } from 'drizzle-orm';
import type { Conn } from '../db/open';
import { leads } from '../db/schema';
import type { MatchKeys } from '../participant';

/**
 * The first lead of the same person sharing an engagement with `engagementIds`, or null. Call
 * inside the transaction that keeps the new lead: a lock per hash first, so two at once are told apart.
 */
export async function firstLeadOf(tx: Conn, engagementIds: readonly number[], keys: MatchKeys): Promise<number | null> {
  const hashes = [keys.emailMatch, keys.phoneMatch].filter((k): k is string => k !== null).sort();
  if (hashes.length === 0 || engagementIds.length === 0) return null;
  for (const hash of hashes) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`lead:${hash}`}, 0))`);
  const [found] = await tx
    .select({ id: leads.id })
    .from(leads)
    .where(
      and(
        isNull(leads.duplicateOf),
        sql`${leads.engagementIds} && ${sql.raw(`'{${engagementIds.map(Number).join(',')}}'::int[]`)}`,
        or(
          keys.emailMatch ? sql`${leads.emailMatch} = ${keys.emailMatch}` : undefined,
          keys.phoneMatch ? sql`${leads.phoneMatch} = ${keys.phoneMatch}` : undefined,
        ),
      ),
    )
    .orderBy(asc(leads.created), asc(leads.id))
    .limit(1);
  return found?.id ?? null;
}

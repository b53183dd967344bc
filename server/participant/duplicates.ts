/**
 * Duplicate referrals: the same person (the same e-mail address or the same phone number,
 * compared by their keyed hashes, security/contactMatch.ts) referred to the same engagement
 * within the engagement's window (`duplicate_window_days`, 90 by default, 0 = never) is a
 * duplicate of the first such referral. A duplicate's contact is kept, marked `duplicate_of`,
 * but gets no referral and is never sent; the participant sees the usual completed outcome.
 */
import { and, asc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { ContactFormField, ContactValue } from '@core/survey/contact';
import type { Conn } from '../db/open';
import { contacts, engagements } from '../db/schema';
import type { ContactMatcher } from '../security/contactMatch';
import { DAY_MS } from '@core/time';

export interface MatchKeys {
  emailMatch: string | null;
  phoneMatch: string | null;
}

/** The keyed hashes of the first e-mail and the first phone field's values of a contact. */
export function matchKeysOf(matcher: ContactMatcher, form: readonly ContactFormField[], values: Readonly<Record<string, ContactValue>>): MatchKeys {
  const first = (type: 'email' | 'phone') =>
    form
      .filter((f) => f.fieldType === type)
      .map((f) => values[f.name])
      .find((v) => typeof v === 'string');
  return { emailMatch: matcher.email(first('email')), phoneMatch: matcher.phone(first('phone')) };
}

export interface FirstReferral {
  contactId: number;
  /** What matched: the e-mail address or the phone number. */
  by: 'email' | 'phone';
  created: Date;
  windowDays: number;
}

/**
 * The first referral of the same person to engagement `engagementId` within its window before
 * `now`, or null. Call inside the transaction that stores the new contact: it takes a lock per
 * hash first, so two runs of the same person at once are told apart (the second waits, then
 * finds the first).
 */
export async function firstReferralOf(tx: Conn, engagementId: number, keys: MatchKeys, now: Date): Promise<FirstReferral | null> {
  const hashes = [keys.emailMatch, keys.phoneMatch].filter((k): k is string => k !== null).sort();
  if (hashes.length === 0) return null;
  const [engagement] = await tx.select({ windowDays: engagements.duplicateWindowDays }).from(engagements).where(eq(engagements.id, engagementId));
  if (!engagement || engagement.windowDays === 0) return null;
  for (const hash of hashes) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${engagementId}:${hash}`}, 0))`);
  const since = new Date(now.getTime() - engagement.windowDays * DAY_MS);
  const [found] = await tx
    .select({ id: contacts.id, created: contacts.created, emailMatch: contacts.emailMatch })
    .from(contacts)
    .where(
      and(
        eq(contacts.engagementId, engagementId),
        isNull(contacts.duplicateOf),
        gte(contacts.created, since),
        or(keys.emailMatch ? eq(contacts.emailMatch, keys.emailMatch) : undefined, keys.phoneMatch ? eq(contacts.phoneMatch, keys.phoneMatch) : undefined),
      ),
    )
    .orderBy(asc(contacts.created), asc(contacts.id))
    .limit(1);
  if (!found) return null;
  return {
    contactId: found.id,
    by: keys.emailMatch !== null && found.emailMatch === keys.emailMatch ? 'email' : 'phone',
    created: found.created,
    windowDays: engagement.windowDays,
  };
}

/** What the RMS audits list says of a duplicate instead of an attempt. */
export function duplicateNote(first: FirstReferral): string {
  const what = first.by === 'email' ? 'e-mail address' : 'phone number';
  return `Not sent: a duplicate of contact ${first.contactId} (the same ${what}, referred ${first.created.toISOString().slice(0, 10)}, within the engagement's ${first.windowDays}-day window).`;
}

/**
 * Making delivery attempts: every due outbox row is claimed (outbox.ts), sent through its
 * engagement's provider, and recorded — an audit row per attempt, the delivery delivered,
 * retrying on RMS_RETRY_SCHEDULE, or undelivered. Each server process runs one worker loop
 * (`startDeliveryWorker`), woken at once when a contact is stored here and otherwise at the
 * next due time (at least every few seconds, for rows other processes made due). The clock is
 * given, so tests state the instants they mean.
 */
import { eq, sql } from 'drizzle-orm';
import type { Deps } from '../context';
import { rowsOf } from '../db/rows';
import { contacts, engagements, rmsProviders } from '../db/schema';
import { startPollingLoop } from '../jobs/pollingLoop';
import { outboxWorkerOptionsOf, type OutboxWorkerOptions } from '../jobs/retrySchedule';
import { normalizeEmail, normalizePhone } from '../security/contactMatch';
import type { PrivateHostAllowance } from '../security/privateHosts';
import { failure, type AttemptResult } from './attempt';
import { requeueUndelivered, type AuditFilters } from './audits';
import { claimDue, countExtraAttempt, recordAttempt, restartDelivery, writeAudit, type Claim, type RmsAuditRow } from './outbox';
import { loadReferralFacts } from './payload';
import { providerFor, type RmsProvider } from './provider';
import { openSecrets } from './providers';

export interface DeliveryOptions extends OutboxWorkerOptions {
  /** Hosts on private networks endpoints may reach (RMS_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts: PrivateHostAllowance;
}

export const deliveryOptionsOf = (deps: Deps): DeliveryOptions => ({
  ...outboxWorkerOptionsOf(deps, deps.config.rmsRetrySchedule),
  allowPrivateHosts: deps.config.rmsAllowPrivateHosts,
});

/** The longest a worker sleeps: rows made due by other processes are found at least this often. */
const POLL_MS = 5000;
const MIN_WAIT_MS = 200;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A record system's answer read as characters: JSON \u escapes, HTML character references and
 * percent-encoding decoded, so that each spelling of a value is the one redaction looks for. What
 * an audit keeps is this normalised text.
 */
function normalisedAnswer(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#(x[0-9a-fA-F]{1,6}|\d{1,7});/g, (whole, code: string) => {
      const point = code.startsWith('x') ? parseInt(code.slice(1), 16) : Number(code);
      return point <= 0x10ffff ? String.fromCodePoint(point) : whole;
    })
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (encoded) => {
      try {
        return decodeURIComponent(encoded);
      } catch {
        return encoded;
      }
    });
}

/**
 * A record system may echo what it was sent, and its answer is kept in rms_audits in clear: the
 * participant's values are cut out of it first, so the raw rows hold no contact details. The
 * answer is normalised first (normalisedAnswer); then each value goes in every spelling it
 * may come back in: as sent, an e-mail address's local part, and a phone number's digits with any
 * separators and with or without the country code (as contactMatch.ts compares them). Values
 * under three characters are left: they identify no one and would mangle the text.
 */
export function withoutContactValues(text: string, values: Record<string, unknown>): string {
  let out = normalisedAnswer(text);
  const cut = (pattern: RegExp) => {
    out = out.replace(pattern, '[redacted]');
  };
  for (const value of Object.values(values)) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const plain = String(value).trim();
    if (plain.length < 3) continue;
    for (const form of new Set([plain, JSON.stringify(plain).slice(1, -1)])) cut(new RegExp(escapeRegExp(form), 'gi'));
    const email = normalizeEmail(plain);
    const local = email?.split('@')[0];
    if (local && local.length >= 3) cut(new RegExp(escapeRegExp(local), 'gi'));
    const phone = normalizePhone(plain);
    if (phone !== null && /^[\d\s().+-]+$/.test(plain)) {
      // The digits in order, any few separators between them, a leading +1 or 1 with it.
      cut(new RegExp(`(?:\\+?1[^0-9A-Za-z]{0,3})?${[...phone].join('[^0-9A-Za-z]{0,3}')}(?![0-9])`, 'g'));
    }
  }
  return out;
}

async function providerOfContact(options: DeliveryOptions, contactId: number): Promise<RmsProvider> {
  const [found] = await options.db
    .select({ provider: rmsProviders })
    .from(contacts)
    .innerJoin(engagements, eq(engagements.id, contacts.engagementId))
    .leftJoin(rmsProviders, eq(rmsProviders.id, engagements.rmsProviderId))
    .where(eq(contacts.id, contactId));
  const row = found?.provider ?? null;
  return providerFor(row, row ? openSecrets(options.phi, row) : { secret: null, bearerToken: null }, options.allowPrivateHosts);
}

/** Sends contact `contactId`'s referral once under `referralKey`; never throws. */
async function sendOnce(
  options: DeliveryOptions,
  provider: RmsProvider,
  contactId: number,
  referralKey: string,
  attempt: number,
  now: Date,
): Promise<AttemptResult> {
  let facts: Awaited<ReturnType<typeof loadReferralFacts>>;
  try {
    facts = await loadReferralFacts(options.db, options.phi, contactId, referralKey);
  } catch (error) {
    // A key that changed since the contact was stored: nothing can be sent until it is back.
    return failure(`The contact could not be decrypted: ${error instanceof Error ? error.message : String(error)}`, false);
  }
  if (!facts) return failure('The contact no longer exists.', false);
  const result = await provider.send(facts, attempt, now);
  return {
    ...result,
    responseMessage: withoutContactValues(result.responseMessage, facts.values),
    responseBody: withoutContactValues(result.responseBody, facts.values),
  };
}

async function attemptClaim(options: DeliveryOptions, claim: Claim, now: Date): Promise<RmsAuditRow> {
  const provider = await providerOfContact(options, claim.contactId);
  const who = { providerId: provider.providerId, providerName: provider.name };
  if (claim.interrupted) {
    await writeAudit(
      options.db,
      {
        ...who,
        contactId: claim.contactId,
        attempt: claim.attempt - 1,
        succeeded: false,
        responseMessage: 'Interrupted: the server stopped before this attempt was recorded.',
        responseBody: '',
      },
      now,
    );
  }
  const result = await sendOnce(options, provider, claim.contactId, claim.referralKey, claim.attempt, now);
  return recordAttempt(
    options.db,
    claim,
    { ...who, succeeded: result.succeeded, responseMessage: result.responseMessage, responseBody: result.responseBody },
    result,
    options.schedule,
    options.clock(),
  );
}

/** Makes every attempt due at `now` (only `contactId`'s when given); answers their audits. */
export async function deliverDue(options: DeliveryOptions, now = options.clock(), only?: { contactId: number }): Promise<RmsAuditRow[]> {
  const audits: RmsAuditRow[] = [];
  for (;;) {
    const claims = await claimDue(options.db, now, { limit: 20, contactId: only?.contactId });
    if (claims.length === 0) return audits;
    audits.push(...(await Promise.all(claims.map((claim) => attemptClaim(options, claim, now)))));
    if (only) return audits;
  }
}

export type ResendOutcome =
  | { kind: 'missing' }
  | { kind: 'duplicate'; duplicateOf: number }
  | { kind: 'delivered'; deliveredAt: Date | null }
  | { kind: 'attempted'; audit: RmsAuditRow; alreadyDelivered: boolean }
  | { kind: 'busy' };

/**
 * Resend (staff): a delivery that has not succeeded starts a fresh round and is attempted now;
 * one already delivered is sent once more only when `again` says the duplicate is meant.
 */
export async function resend(options: DeliveryOptions, contactId: number, again: boolean): Promise<ResendOutcome> {
  const now = options.clock();
  // A duplicate is never sent: its sponsor has the first referral.
  const [contact] = await options.db.select({ duplicateOf: contacts.duplicateOf }).from(contacts).where(eq(contacts.id, contactId));
  if (contact?.duplicateOf) return { kind: 'duplicate', duplicateOf: contact.duplicateOf };
  const before = await restartDelivery(options.db, contactId, now);
  if (!before) return { kind: 'missing' };
  if (before.status === 'delivered') {
    if (!again) return { kind: 'delivered', deliveredAt: before.deliveredAt };
    const extra = await countExtraAttempt(options.db, contactId, now);
    if (!extra) return { kind: 'busy' };
    const provider = await providerOfContact(options, contactId);
    const result = await sendOnce(options, provider, contactId, extra.referralKey, extra.attempt, now);
    const audit = await writeAudit(
      options.db,
      {
        contactId,
        providerId: provider.providerId,
        providerName: provider.name,
        attempt: extra.attempt,
        succeeded: result.succeeded,
        responseMessage: result.responseMessage,
        responseBody: result.responseBody,
      },
      options.clock(),
    );
    return { kind: 'attempted', audit, alreadyDelivered: true };
  }
  const [audit] = await deliverDue(options, now, { contactId });
  // Claimed meanwhile by a worker (or its provider is inactive): it goes out from there.
  return audit ? { kind: 'attempted', audit, alreadyDelivered: false } : { kind: 'busy' };
}

/**
 * Bulk resend (staff): every undelivered contact the filters show is due now, attempted here at
 * once; other processes' workers take their share as they find them due. Answers how many.
 */
export async function resendUndelivered(options: DeliveryOptions, filters: Omit<AuditFilters, 'status'>): Promise<number> {
  const queued = await requeueUndelivered(options.db, filters, options.clock());
  if (queued > 0) deliverAllSoon(options);
  return queued;
}

const pending = new Set<Promise<unknown>>();

function track(run: Promise<unknown>) {
  pending.add(run);
  void run.finally(() => pending.delete(run));
}

/** Attempts contact `contactId`'s delivery now in the background (the participant is not kept waiting). */
export function deliverSoon(options: DeliveryOptions, contactId: number): void {
  track(
    deliverDue(options, options.clock(), { contactId }).catch((error: unknown) =>
      options.log.error('record-system delivery failed', { contactId, error: error instanceof Error ? error.message : String(error) }),
    ),
  );
}

/** Attempts everything due now in the background (after a bulk resend). */
export function deliverAllSoon(options: DeliveryOptions): void {
  track(
    deliverDue(options).catch((error: unknown) =>
      options.log.error('record-system delivery failed', { error: error instanceof Error ? error.message : String(error) }),
    ),
  );
}

/** Resolves when every attempt started so far (and any started meanwhile) has finished. */
export async function settleDeliveries(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

export interface DeliveryWorker {
  /** Look for due deliveries now. */
  wake(): void;
  /** Stops the loop and waits for the attempts under way. */
  stop(): Promise<void>;
}

/**
 * How long the loop may sleep: until the next delivery it could claim is due, at most `pollMs`
 * (rows other processes make due), never under MIN_WAIT_MS (a due row another process holds is
 * not worth a busy loop). A paused (inactive) provider's deliveries do not count.
 */
export async function nextWaitMs(options: DeliveryOptions, pollMs = POLL_MS): Promise<number> {
  const [row] = rowsOf(
    await options.db.execute(sql`
      select min(d.next_attempt_at) as due
      from rms_deliveries d
      join contacts c on c.id = d.contact_id
      join engagements e on e.id = c.engagement_id
      left join rms_providers p on p.id = e.rms_provider_id
      where d.status in ('pending', 'retrying') and (p.id is null or p.is_active)`),
  );
  const due = row?.due;
  if (due === null || due === undefined) return pollMs;
  return Math.max(MIN_WAIT_MS, Math.min(pollMs, new Date(due as string | Date).getTime() - options.clock().getTime()));
}

/** The loop of one server process: due deliveries are attempted until `stop()`. */
export function startDeliveryWorker(options: DeliveryOptions, pollMs = POLL_MS): DeliveryWorker {
  return startPollingLoop({
    name: 'record-system delivery',
    drain: () => deliverDue(options).then(() => undefined),
    nextWaitMs: () => nextWaitMs(options, pollMs),
    pollMs,
    log: options.log,
    track,
  });
}

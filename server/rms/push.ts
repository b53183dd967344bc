/**
 * Pushing a stored contact to its engagement's record system: bounded attempts with exponential
 * backoff, one rms_audits row per attempt, and contacts.pushed_at once one succeeds. The contact
 * is already stored when this runs and nothing here deletes it, so a record system that is down
 * loses nothing: the contact can be pushed again (POST /api/resend-rms-audit/{contactId}).
 *
 * The participant's contact POST starts a push in the background (`startPush`) and answers at
 * once; `settlePushes()` waits for the pushes under way (tests, and a clean shutdown).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/open';
import { contacts, engagementSiteLocations, engagements, rmsAudits, rmsProviders, siteLocations } from '../db/schema';
import type { Deps } from '../context';
import { phiCipher, resolvePhiKey, type PhiCipher } from '../security/phi';
import { providerFor, truncate, type RmsProvider } from './provider';

export type RmsAuditRow = typeof rmsAudits.$inferSelect;

export interface PushOptions {
  phi: PhiCipher;
  /** Wait before the second attempt; doubled before each later one (RMS_RETRY_BACKOFF_MS). */
  backoffMs: number;
  fetch?: typeof fetch;
}

const BACKOFF_CAP_MS = 30_000;

const resolvedCiphers = new WeakMap<Deps, PhiCipher>();

/** The server's contact cipher: the one it was built with, else the configured (or kept) key. */
export function phiOf(deps: Deps): PhiCipher {
  if (deps.phi) return deps.phi;
  let cipher = resolvedCiphers.get(deps);
  if (!cipher) {
    cipher = phiCipher(resolvePhiKey(deps.config.phiKey, deps.config.dataDir));
    resolvedCiphers.set(deps, cipher);
  }
  return cipher;
}

export const pushOptionsOf = (deps: Deps): PushOptions => ({ phi: phiOf(deps), backoffMs: deps.config.rmsRetryBackoffMs });

export const backoffDelay = (baseMs: number, attempt: number) => Math.min(baseMs * 2 ** (attempt - 1), BACKOFF_CAP_MS);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The JSON a record system receives. Stable across the attempts of one push. */
export interface RmsContactPayload {
  contactId: number;
  created: string;
  engagement: { id: number; name: string; identification: string; protocolIdentifier: string | null; rmsSponsorIdentifier: string | null };
  site: {
    engagementSiteLocationId: number;
    rmsSiteIdentification: string | null;
    siteId: string | null;
    name: string;
    city: string | null;
    state: string | null;
    zipCode: string | null;
  } | null;
  submissionId: number | null;
  screenerId: number | null;
  mediaChannelId: number | null;
  language: string;
  acceptTerms: boolean;
  consentedAt: string | null;
  /** Contact field name to the participant's value. */
  values: Record<string, unknown>;
}

type ContactRow = typeof contacts.$inferSelect;

async function loadContext(db: Db, contactId: number) {
  const [found] = await db
    .select({ contact: contacts, engagement: engagements, provider: rmsProviders })
    .from(contacts)
    .innerJoin(engagements, eq(engagements.id, contacts.engagementId))
    .leftJoin(rmsProviders, eq(rmsProviders.id, engagements.rmsProviderId))
    .where(eq(contacts.id, contactId));
  if (!found) return null;
  const [site] = found.contact.engagementSiteLocationId
    ? await db
        .select({ link: engagementSiteLocations, site: siteLocations })
        .from(engagementSiteLocations)
        .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
        .where(eq(engagementSiteLocations.id, found.contact.engagementSiteLocationId))
    : [];
  return { ...found, site: site ?? null };
}

/** The contact's values, decrypted. Throws PhiError when the stored value cannot be opened. */
export function openContactValues(phi: PhiCipher, contact: Pick<ContactRow, 'valuesCiphertext'>): Record<string, unknown> {
  const parsed: unknown = JSON.parse(phi.open(contact.valuesCiphertext));
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function payloadOf(context: NonNullable<Awaited<ReturnType<typeof loadContext>>>, values: Record<string, unknown>): RmsContactPayload {
  const { contact, engagement, site } = context;
  return {
    contactId: contact.id,
    created: contact.created.toISOString(),
    engagement: {
      id: engagement.id,
      name: engagement.name,
      identification: engagement.identification,
      protocolIdentifier: engagement.protocolIdentifier,
      rmsSponsorIdentifier: engagement.rmsSponsorIdentifier,
    },
    site: site
      ? {
          engagementSiteLocationId: site.link.id,
          rmsSiteIdentification: site.link.rmsSiteIdentification,
          siteId: site.site.siteId,
          name: site.site.name,
          city: site.site.city,
          state: site.site.state,
          zipCode: site.site.zipCode,
        }
      : null,
    submissionId: contact.submissionId,
    screenerId: contact.screenerId,
    mediaChannelId: contact.mediaChannelId,
    language: contact.language,
    acceptTerms: contact.acceptTerms,
    consentedAt: contact.consentedAt?.toISOString() ?? null,
    values,
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A record system may echo what it was sent, and its answer is kept in rms_audits in clear: the
 * participant's values (as sent, JSON-escaped or URL-encoded) are cut out of it first, so the
 * raw rows hold no contact details. Values under three characters are left: they identify no one
 * and would mangle the text.
 */
export function withoutContactValues(text: string, values: Record<string, unknown>): string {
  let out = text;
  for (const value of Object.values(values)) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const plain = String(value).trim();
    if (plain.length < 3) continue;
    for (const form of new Set([plain, JSON.stringify(plain).slice(1, -1), encodeURIComponent(plain)])) {
      out = out.replace(new RegExp(escapeRegExp(form), 'gi'), '[redacted]');
    }
  }
  return out;
}

async function audit(db: Db, contactId: number, provider: RmsProvider, attempt: number, result: { succeeded: boolean; responseMessage: string; responseBody: string }) {
  const [row] = await db
    .insert(rmsAudits)
    .values({
      contactId,
      rmsProviderId: provider.providerId,
      rmsProviderName: provider.name,
      succeeded: result.succeeded,
      attempt,
      responseMessage: truncate(result.responseMessage, 500),
      responseBody: truncate(result.responseBody),
    })
    .returning();
  if (!row) throw new Error('rms audit not written');
  return row;
}

/**
 * Pushes contact `contactId` to its engagement's record system (the `none` provider when the
 * engagement has none) and answers the audits written, one per attempt, oldest first; null
 * when there is no such contact.
 */
export async function pushContact(db: Db, contactId: number, options: PushOptions): Promise<RmsAuditRow[] | null> {
  const context = await loadContext(db, contactId);
  if (!context) return null;
  const provider = providerFor(context.provider, { fetch: options.fetch });

  let body: string;
  let values: Record<string, unknown>;
  try {
    values = openContactValues(options.phi, context.contact);
    body = JSON.stringify(payloadOf(context, values));
  } catch (error) {
    // A key that changed since the contact was stored: nothing can be sent until it is back.
    const reason = error instanceof Error ? error.message : String(error);
    return [await audit(db, contactId, provider, 1, { succeeded: false, responseMessage: `The contact could not be decrypted: ${reason}`, responseBody: '' })];
  }

  const audits: RmsAuditRow[] = [];
  for (let attempt = 1; attempt <= provider.maxAttempts; attempt++) {
    if (attempt > 1) await sleep(backoffDelay(options.backoffMs, attempt - 1));
    const result = await provider.send(body, attempt);
    const kept = { ...result, responseMessage: withoutContactValues(result.responseMessage, values), responseBody: withoutContactValues(result.responseBody, values) };
    audits.push(await audit(db, contactId, provider, attempt, kept));
    if (result.succeeded) {
      await db.update(contacts).set({ pushedAt: new Date() }).where(eq(contacts.id, contactId));
      break;
    }
    if (!result.retryable) break;
  }
  return audits;
}

const pending = new Set<Promise<unknown>>();

/**
 * Starts a push without waiting for it: the participant is not kept waiting for a record system
 * (up to max_attempts × timeout plus backoff). A failure is logged; its audits say what happened.
 */
export function startPush(db: Db, contactId: number, options: PushOptions & { onError?: (error: unknown) => void }): void {
  const run = pushContact(db, contactId, options).catch((error: unknown) => options.onError?.(error));
  pending.add(run);
  void run.finally(() => pending.delete(run));
}

/** Resolves when every push started so far (and any started meanwhile) has finished. */
export async function settlePushes(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

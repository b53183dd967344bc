/**
 * Sending messages: every due outbox row is claimed (outbox.ts), checked once more (a
 * participant who unsubscribed gets nothing; a reminder of a first contact already made is not
 * sent), sent through the mail server, and recorded: sent, retrying on MESSAGE_RETRY_SCHEDULE,
 * or failed. Without SMTP_URL the due rows wait ("not sent: no mail server configured") and go
 * out once a server started with it finds them. Each server process runs one loop
 * (`startMessageWorker`), woken when a message is written here; it also purges the bodies of
 * messages older than MESSAGE_RETENTION_DAYS, and writes the recruiters' daily digests (digest.ts)
 * once their hour has come. The clock is given, so tests state their instants.
 */
import { eq, sql } from 'drizzle-orm';
import type { Deps } from '../context';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { messages, referrals } from '../db/schema';
import { startPollingLoop } from '../jobs/pollingLoop';
import { outboxWorkerOptionsOf, type OutboxWorkerOptions } from '../jobs/retrySchedule';
import { digestDay, enqueueDigests } from './digest';
import { smtpMailer, type Mailer } from './mailer';
import {
  claimDue,
  isOptedOut,
  isSmsOptedOut,
  markWaiting,
  purgeBodies,
  recordAttempt,
  TEXTED_STOP,
  UNSUBSCRIBED,
  type Channel,
  type Claim,
  type SendOutcome,
  unsubscribeUrl,
} from './outbox';
import { smsSenderFor } from './sms';
import type { SmsSender } from './smsProvider';

export interface MessageOptions extends OutboxWorkerOptions {
  /** Null without SMTP_URL: e-mail waits. */
  mailer: Mailer | null;
  /** Null without SMS_PROVIDER: texts wait. */
  sms: SmsSender | null;
  mailFrom: string;
  /** Where links in messages point (PUBLIC_URL). */
  baseUrl: string;
  retentionDays: number;
  /** How long a claimed send may take before another process may make it again. */
  leaseMs: number;
  /** From this hour (UTC) each day the recruiters' digests are written (MESSAGE_DIGEST_HOUR). */
  digestHour: number;
}

/** A send is a connection, a greeting and a few answers, each within the timeout: four of them, and a margin. */
export const leaseMsOf = (timeoutSeconds: number) => (timeoutSeconds * 4 + 5) * 1000;

const mailers = new Map<string, Mailer>();
const mailerFor = (url: string | null, timeoutSeconds: number): Mailer | null => {
  if (!url) return null;
  const key = `${timeoutSeconds} ${url}`;
  let mailer = mailers.get(key);
  if (!mailer) {
    mailer = smtpMailer(url, timeoutSeconds);
    mailers.set(key, mailer);
  }
  return mailer;
};

export const baseUrlOf = (deps: Pick<Deps, 'config'>) => deps.config.publicUrl ?? `http://localhost:${deps.config.port}`;

export const messageOptionsOf = (deps: Deps): MessageOptions => ({
  ...outboxWorkerOptionsOf(deps, deps.config.messageRetrySchedule),
  mailer: mailerFor(deps.config.smtpUrl, deps.config.smtpTimeoutSeconds),
  sms: smsSenderFor(deps.config.sms, deps.config.smtpTimeoutSeconds),
  leaseMs: leaseMsOf(deps.config.smtpTimeoutSeconds),
  mailFrom: deps.config.mailFrom,
  baseUrl: baseUrlOf(deps),
  retentionDays: deps.config.messageRetentionDays,
  digestHour: deps.config.messageDigestHour,
});

/** Whether the message is still to be sent; the reason when not. */
async function stillWanted(db: Db, row: typeof messages.$inferSelect): Promise<string | null> {
  if (row.channel === 'sms') {
    // Checked again here: a STOP may have arrived after the text was written.
    if (await isSmsOptedOut(db, row.toMatch)) return TEXTED_STOP;
  } else if (row.audience === 'participant' && (await isOptedOut(db, row.toMatch))) return UNSUBSCRIBED;
  if (row.kind === 'firstContactOverdue' && row.referralId !== null) {
    const [referral] = await db
      .select({ firstContactAt: referrals.firstContactAt, status: referrals.status })
      .from(referrals)
      .where(eq(referrals.id, row.referralId));
    if (!referral || referral.firstContactAt !== null || !['new', 'attempting-contact'].includes(referral.status))
      return 'not sent: the first contact was made';
  }
  if (row.kind === 'participantReminder' && row.referralId !== null) {
    const [referral] = await db
      .select({ firstContactAt: referrals.firstContactAt, attempts: referrals.attempts, status: referrals.status })
      .from(referrals)
      .where(eq(referrals.id, row.referralId));
    if (!referral || referral.attempts > 0 || referral.firstContactAt !== null || referral.status !== 'new') return 'not sent: a contact attempt was logged';
  }
  return null;
}

async function sendClaim(options: MessageOptions, claim: Claim): Promise<SendOutcome> {
  const [row] = await options.db.select().from(messages).where(eq(messages.id, claim.id));
  if (!row) return { sent: false, error: 'The message no longer exists.', retryable: false };
  const reason = await stillWanted(options.db, row);
  if (reason) return { sent: false, cancelled: true, error: reason, retryable: false };
  if (row.bodyCiphertext === null) return { sent: false, error: 'The body was purged (MESSAGE_RETENTION_DAYS).', retryable: false };
  let to: string;
  let body: { text: string; html: string };
  try {
    to = options.phi.open(row.toCiphertext);
    body = JSON.parse(options.phi.open(row.bodyCiphertext)) as { text: string; html: string };
  } catch (error) {
    return { sent: false, error: `The message could not be decrypted: ${error instanceof Error ? error.message : String(error)}`, retryable: false };
  }
  if (row.channel === 'sms') {
    if (!options.sms) return { sent: false, error: 'No SMS provider is configured.', retryable: true };
    // The Message-ID doubles as the provider's idempotency key: the same on every attempt.
    return options.sms.send({ to, body: body.text, idempotencyKey: row.messageId });
  }
  const mailer = options.mailer;
  if (!mailer) return { sent: false, error: 'No mail server is configured.', retryable: true };
  const headers: Record<string, string> = { 'Auto-Submitted': 'auto-generated' };
  if (row.unsubscribeToken) {
    // RFC 8058 one-click unsubscribe: a POST to this URL is all it takes.
    headers['List-Unsubscribe'] = `<${unsubscribeUrl(options.baseUrl, row.unsubscribeToken)}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  return mailer.send({ from: options.mailFrom, to, subject: row.subject, text: body.text, html: body.html, messageId: row.messageId, headers });
}

/** Sends every message due at `now` (only message `id` when given); answers how many were attempted. */
export async function sendDue(options: MessageOptions, now = options.clock(), only?: { id: number }): Promise<number> {
  const channels: Channel[] = [];
  if (options.mailer) channels.push('email');
  else await markWaiting(options.db, now, 'email');
  if (options.sms) channels.push('sms');
  else await markWaiting(options.db, now, 'sms');
  let attempted = 0;
  for (;;) {
    const claims = await claimDue(options.db, now, { limit: 10, id: only?.id, leaseMs: options.leaseMs, channels });
    if (claims.length === 0) return attempted;
    // At once, so each send runs within its own lease (a claim's lease starts for all of them together).
    await Promise.all(
      claims.map(async (claim) => {
        const outcome = await sendClaim(options, claim);
        await recordAttempt(options.db, claim, outcome, options.schedule, options.clock());
        if (!outcome.sent && !outcome.cancelled) options.log.warn('message not sent', { messageId: claim.id, attempt: claim.attempt, error: outcome.error });
      }),
    );
    attempted += claims.length;
    if (only) return attempted;
  }
}

const pending = new Set<Promise<unknown>>();
function track(run: Promise<unknown>) {
  pending.add(run);
  void run.finally(() => pending.delete(run));
}

/** Sends what is due now in the background (after a request wrote messages). */
export function sendMessagesSoon(options: MessageOptions): void {
  track(
    sendDue(options).catch((error: unknown) => options.log.error('sending messages failed', { error: error instanceof Error ? error.message : String(error) })),
  );
}

/** Resolves when every send started so far has finished. */
export async function settleMessages(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

const POLL_MS = 5000;
const MIN_WAIT_MS = 200;
const PURGE_EVERY_MS = 3600_000;

export async function nextWaitMs(options: MessageOptions, pollMs = POLL_MS): Promise<number> {
  // A channel without its server or provider has nothing due until a restart with one.
  const channels = [options.mailer ? 'email' : null, options.sms ? 'sms' : null].filter((c): c is string => c !== null);
  if (channels.length === 0) return pollMs;
  const [row] = rowsOf(
    await options.db.execute(
      sql`select min(next_attempt_at) as due from messages where status in ('pending', 'waiting', 'retrying') and channel in (${sql.join(
        channels.map((c) => sql`${c}`),
        sql`, `,
      )})`,
    ),
  );
  const due = row?.due;
  if (due === null || due === undefined) return pollMs;
  return Math.max(MIN_WAIT_MS, Math.min(pollMs, new Date(due as string | Date).getTime() - options.clock().getTime()));
}

export interface MessageWorker {
  wake(): void;
  stop(): Promise<void>;
}

/** The loop of one server process: the day's digests written once due, due messages sent until `stop()`, sent bodies purged now and then. */
export function startMessageWorker(options: MessageOptions, pollMs = POLL_MS): MessageWorker {
  let purgedAt = 0;
  let digestsOf: string | null = null;
  return startPollingLoop({
    name: 'message',
    drain: async () => {
      const day = digestDay(options.clock(), options.digestHour);
      if (day !== null && day !== digestsOf) {
        await enqueueDigests(options.db, { phi: options.phi, mailFrom: options.mailFrom, baseUrl: options.baseUrl }, options.clock(), options.digestHour);
        digestsOf = day;
      }
      await sendDue(options);
      const now = options.clock();
      if (now.getTime() - purgedAt >= PURGE_EVERY_MS) {
        purgedAt = now.getTime();
        await purgeBodies(options.db, now, options.retentionDays);
      }
    },
    nextWaitMs: () => nextWaitMs(options, pollMs),
    pollMs,
    log: options.log,
    track,
  });
}

/**
 * The message outbox (messages): rows written in the transaction of what caused them, claimed
 * and leased as every outbox is (jobs/lease.ts), so each attempt belongs to one process and a
 * process that dies mid-send leaves its lease to run out; the row is then due again with the
 * same Message-ID. Only the claim's holder records its outcome.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { MessageKind } from '@core/model/message';
import type { Conn, Db } from '../db/open';
import { messageOptOuts, messages, smsOptOuts } from '../db/schema';
import type { PhiCipher } from '../security/phi';
import { DAY_MS } from '@core/time';
import { claimLeases } from '../jobs/lease';
import { retryDueAt } from '../jobs/retrySchedule';

export type MessageRow = typeof messages.$inferSelect;

/** Shown while no mail server is configured (SMTP_URL unset). */
export const NO_MAIL_SERVER = 'not sent: no mail server configured';
export const UNSUBSCRIBED = 'not sent: the participant unsubscribed';
/** Shown while no SMS provider is configured (SMS_PROVIDER unset). */
export const NO_SMS_PROVIDER = 'not sent: no SMS provider configured';
export const TEXTED_STOP = 'not sent: the number texted STOP';

export type Channel = 'email' | 'sms';

export interface NewMessage {
  kind: MessageKind;
  /** E-mail unless given; a text's `to` is a phone number, its `toMatch` the number's keyed hash, and only `text` is sent. */
  channel?: Channel;
  engagementId: number | null;
  referralId: number | null;
  audience: 'staff' | 'participant';
  recipientUserId: number | null;
  recipientLabel: string;
  language: string;
  to: string;
  toMatch: string | null;
  subject: string;
  text: string;
  html: string;
  /** Set for participant mail: the one-click unsubscribe link's token. */
  unsubscribeToken: string | null;
  dueAt: Date;
  /** A Message-ID made of what the message is once for (a digest's recipient and day); a second write of it is dropped. */
  messageId?: string;
}

/** What writing a message needs besides its facts: the sealing key, MAIL_FROM (the Message-ID's domain) and PUBLIC_URL for its links. */
export interface MessageContext {
  phi: PhiCipher;
  mailFrom: string;
  baseUrl: string;
}

export const newUnsubscribeToken = () => randomBytes(24).toString('base64url');

/** The one-click unsubscribe link of a participant message's token. */
export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl}/api/message-unsubscribe/${token}`;

/** The domain of a Message-ID: MAIL_FROM's. */
export const messageIdDomain = (mailFrom: string) => /@([^@\s<>]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'localhost';

/** Puts a message in the outbox; call inside the transaction of what caused it. Null when its given Message-ID was already written. */
export async function enqueueMessage(tx: Conn, phi: PhiCipher, domain: string, message: NewMessage, now: Date): Promise<number | null> {
  const [row] = await tx
    .insert(messages)
    .values({
      kind: message.kind,
      channel: message.channel ?? 'email',
      engagementId: message.engagementId,
      referralId: message.referralId,
      audience: message.audience,
      recipientUserId: message.recipientUserId,
      recipientLabel: message.recipientLabel,
      language: message.language,
      toCiphertext: phi.seal(message.to),
      toMatch: message.toMatch,
      subject: message.subject,
      bodyCiphertext: phi.seal(JSON.stringify({ text: message.text, html: message.html })),
      messageId: message.messageId ?? `<${randomUUID()}@${domain}>`,
      unsubscribeToken: message.unsubscribeToken,
      status: 'pending',
      nextAttemptAt: message.dueAt,
      created: now,
    })
    .onConflictDoNothing({ target: messages.messageId })
    .returning({ id: messages.id });
  return row?.id ?? null;
}

export async function isOptedOut(db: Conn, toMatch: string | null): Promise<boolean> {
  if (!toMatch) return false;
  const [row] = await db.select({ m: messageOptOuts.toMatch }).from(messageOptOuts).where(eq(messageOptOuts.toMatch, toMatch));
  return !!row;
}

export interface Claim {
  id: number;
  attempt: number;
  leaseId: string;
  interrupted: boolean;
}

export async function isSmsOptedOut(db: Conn, toMatch: string | null): Promise<boolean> {
  if (!toMatch) return false;
  const [row] = await db.select({ m: smsOptOuts.toMatch }).from(smsOptOuts).where(eq(smsOptOuts.toMatch, toMatch));
  return !!row;
}

/** Claims up to `limit` messages due at `now` on `channels` (only message `id`'s when given). */
export async function claimDue(db: Db, now: Date, options: { limit?: number; id?: number; leaseMs: number; channels: readonly Channel[] }): Promise<Claim[]> {
  if (options.channels.length === 0) return [];
  const leases = await claimLeases(
    db,
    { key: messages.id, attempts: messages.attempts, nextAttemptAt: messages.nextAttemptAt, leaseId: messages.leaseId },
    now,
    {
      where: sql`${messages.status} in ('pending', 'waiting', 'retrying') and ${inArray(messages.channel, [...options.channels])}
      ${options.id === undefined ? sql`` : sql`and ${messages.id} = ${options.id}`}`,
      leaseMs: options.leaseMs,
      limit: options.limit ?? 20,
      alsoSet: sql`${sql.identifier(messages.lastAttemptAt.name)} = ${now.toISOString()}::timestamptz`,
    },
  );
  return leases.map((lease) => ({ id: lease.key, attempt: lease.attempt, leaseId: lease.leaseId, interrupted: lease.interrupted }));
}

/** Without a mail server (or SMS provider): the channel's due messages wait, saying why, and are not counted as attempted. */
export async function markWaiting(db: Db, now: Date, channel: Channel = 'email'): Promise<number> {
  const rows = await db
    .update(messages)
    .set({ status: 'waiting', lastError: channel === 'sms' ? NO_SMS_PROVIDER : NO_MAIL_SERVER })
    .where(and(inArray(messages.status, ['pending', 'retrying']), eq(messages.channel, channel), lte(messages.nextAttemptAt, now)))
    .returning({ id: messages.id });
  return rows.length;
}

export interface SendOutcome {
  sent: boolean;
  /** Not to be sent at all (unsubscribed, nothing left to remind of): cancelled. */
  cancelled?: boolean;
  error: string | null;
  retryable: boolean;
}

/** Records a claimed attempt: sent, cancelled, retrying at its next time, or failed. */
export async function recordAttempt(db: Db, claim: Claim, outcome: SendOutcome, schedule: readonly number[], now: Date): Promise<void> {
  const next = outcome.sent || outcome.cancelled ? null : retryDueAt(schedule, claim.attempt, outcome, now);
  const status = outcome.sent ? 'sent' : outcome.cancelled ? 'cancelled' : next ? 'retrying' : 'failed';
  await db
    .update(messages)
    .set({
      status,
      nextAttemptAt: next,
      leaseId: null,
      lastError: outcome.error === null ? null : outcome.error.slice(0, 500),
      ...(outcome.sent ? { sentAt: now } : {}),
    })
    .where(and(eq(messages.id, claim.id), eq(messages.leaseId, claim.leaseId)));
}

export type RestartOutcome = 'missing' | 'sent' | 'purged' | 'restarted';

/** Resend (staff): a message not sent is due now from a fresh round of attempts. */
export async function restartMessage(db: Db, id: number, now: Date): Promise<RestartOutcome> {
  const [row] = await db.select({ status: messages.status, body: messages.bodyCiphertext }).from(messages).where(eq(messages.id, id));
  if (!row) return 'missing';
  if (row.status === 'sent') return 'sent';
  if (row.body === null) return 'purged';
  await db
    .update(messages)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now, leaseId: null, lastError: null })
    .where(and(eq(messages.id, id), sql`${messages.status} <> 'sent'`));
  return 'restarted';
}

/** Cancels the messages of `which` to the address `toMatch` that are not sent (nor will be), with `reason` as their error. */
const cancelUnsent = (tx: Conn, toMatch: string, which: SQL, reason: string) =>
  tx
    .update(messages)
    .set({ status: 'cancelled', lastError: reason, nextAttemptAt: null, leaseId: null })
    .where(and(eq(messages.toMatch, toMatch), which, inArray(messages.status, ['pending', 'waiting', 'retrying', 'failed'])));

/** Opts a participant's address out and cancels the mail still waiting for it. */
export async function optOut(db: Db, toMatch: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(messageOptOuts).values({ toMatch, created: now }).onConflictDoNothing();
    await cancelUnsent(tx, toMatch, eq(messages.audience, 'participant'), UNSUBSCRIBED);
  });
}

/** A number that texted STOP (its keyed hash): no text goes to it again, and those waiting are cancelled, for every engagement. */
export async function optOutNumber(db: Db, toMatch: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(smsOptOuts).values({ toMatch, created: now }).onConflictDoNothing();
    await cancelUnsent(tx, toMatch, eq(messages.channel, 'sms'), TEXTED_STOP);
  });
}

/** MESSAGE_RETENTION_DAYS: the bodies of messages sent (or cancelled) more than `days` ago are deleted; the row stays. */
export async function purgeBodies(db: Db, now: Date, days: number): Promise<number> {
  if (days <= 0) return 0;
  const before = new Date(now.getTime() - days * DAY_MS);
  const rows = await db
    .update(messages)
    .set({ bodyCiphertext: null, purgedAt: now })
    .where(
      and(
        isNotNull(messages.bodyCiphertext),
        inArray(messages.status, ['sent', 'cancelled']),
        lt(sql`coalesce(${messages.sentAt}, ${messages.created})`, before),
      ),
    )
    .returning({ id: messages.id });
  return rows.length;
}

/** One-click unsubscribe: the address of the participant message holding `token` is opted out. False when no message holds it. */
export async function unsubscribeByToken(db: Db, token: string, now: Date, apply: boolean): Promise<boolean> {
  if (!/^[\w-]{16,64}$/.test(token)) return false;
  const [row] = await db
    .select({ toMatch: messages.toMatch })
    .from(messages)
    .where(and(eq(messages.unsubscribeToken, token), eq(messages.audience, 'participant')));
  if (!row) return false;
  if (apply && row.toMatch) await optOut(db, row.toMatch, now);
  return true;
}

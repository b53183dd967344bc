/**
 * Writing and checking the append-only audit trail (21 CFR Part 11: who, when in UTC, what,
 * old and new values, from where). Writers take a transaction-scoped advisory lock so the
 * chain stays a single line even with several server processes.
 */
import { asc, desc, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { auditEvents } from '../db/schema';
import { GENESIS_HASH, eventHash, type ChainedContent } from './chain';

const AUDIT_LOCK = 7_345_001;
// Never in the trail: passwords, secrets, tokens, one-time codes and URIs that carry a secret.
const SECRET_FIELD = /password|secret|token|otpauth|^code$/i;

export interface AuditInput {
  /** When it happened, by the server's clock. */
  occurredAt: Date;
  actor: { id: number; username: string } | null;
  clientAddress: string | null;
  entity: string;
  entityId: string | number | null;
  action: string;
  changes?: Record<string, { old: unknown; new: unknown }>;
  meta?: Record<string, unknown>;
}

/** JSON-safe copy (dates as ISO strings) so what is hashed is exactly what is stored. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null)) as unknown;

/** The fields whose values differ, secrets masked. `before` null: a creation; `after` null: a deletion. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Record<string, { old: unknown; new: unknown }> {
  const out: Record<string, { old: unknown; new: unknown }> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const old = before ? plain(before[key]) : null;
    const next = after ? plain(after[key]) : null;
    if (JSON.stringify(old) === JSON.stringify(next)) continue;
    out[key] = SECRET_FIELD.test(key) ? { old: old === null ? null : '[redacted]', new: next === null ? null : '[redacted]' } : { old, new: next };
  }
  return out;
}

/**
 * The write-only credentials a request set or removed (a secret, a token, a password: sent, never
 * answered, so changedFields cannot see them): which one changed, never its value.
 */
export function credentialChanges(
  request: Record<string, unknown> | null,
  answer: Record<string, unknown> | null,
  creation: boolean,
): Record<string, { old: unknown; new: unknown }> {
  const out: Record<string, { old: unknown; new: unknown }> = {};
  for (const [key, value] of Object.entries(request ?? {})) {
    if (!SECRET_FIELD.test(key) || value === undefined || (answer && key in answer)) continue;
    out[key] = { old: creation ? null : '[redacted]', new: value === null ? null : '[changed]' };
  }
  return out;
}

export async function recordAudit(db: Db, input: AuditInput): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`);
    const [last] = await tx.select({ hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    const prevHash = last?.hash ?? GENESIS_HASH;
    const content: ChainedContent = {
      occurredAt: input.occurredAt,
      actorUserId: input.actor?.id ?? null,
      actorUsername: input.actor?.username ?? null,
      clientAddress: input.clientAddress,
      entity: input.entity,
      entityId: input.entityId === null ? null : String(input.entityId),
      action: input.action,
      changes: plain(input.changes ?? {}) as ChainedContent['changes'],
      meta: plain(input.meta ?? {}) as ChainedContent['meta'],
    };
    await tx.insert(auditEvents).values({ ...content, prevHash, hash: eventHash(prevHash, content) });
  });
}

export type VerifyResult = { ok: true; rows: number } | { ok: false; rows: number; badId: number; reason: string };

/** Walks the chain in id order; the first row whose hash or link does not hold is named. */
export async function verifyAuditChain(db: Db, batch = 5000): Promise<VerifyResult> {
  let prevHash = GENESIS_HASH;
  let lastId = 0;
  let rows = 0;
  for (;;) {
    const page = await db.select().from(auditEvents).where(sql`${auditEvents.id} > ${lastId}`).orderBy(asc(auditEvents.id)).limit(batch);
    if (page.length === 0) return { ok: true, rows };
    for (const row of page) {
      rows++;
      if (row.prevHash !== prevHash) {
        return { ok: false, rows, badId: row.id, reason: 'its link to the previous row is broken (a row before it was removed or changed)' };
      }
      const { id: _id, prevHash: _p, hash, ...content } = row;
      if (eventHash(prevHash, content) !== hash) return { ok: false, rows, badId: row.id, reason: 'its content no longer matches its hash (it was changed)' };
      prevHash = hash;
      lastId = row.id;
    }
  }
}

/** The reasons staff keep for closing a referral at screen-failed, withdrawn or not-reachable. */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { referralReasons } from '../db/schema';
import { rethrowConstraint } from '../http/sql';
import { ReferralRefused } from './errors';

export const REASON_TAKEN = 'This status already has a reason of that name.';

export interface ReasonValues {
  name: string;
  status: 'screen-failed' | 'withdrawn' | 'not-reachable';
  isActive: boolean;
}

const columns = { id: referralReasons.id, name: referralReasons.name, status: referralReasons.status, isActive: referralReasons.isActive };

const taken = (error: unknown): never => rethrowConstraint(error, { unique: () => new ReferralRefused('name', REASON_TAKEN) });

export async function listReasons(db: Db, q: { limit: number; offset: number; sort: { desc: boolean }[] }, status: string | undefined) {
  const where = status ? eq(referralReasons.status, status) : undefined;
  const [total] = await db.select({ n: count() }).from(referralReasons).where(where);
  const rows = await db
    .select(columns)
    .from(referralReasons)
    .where(where)
    .orderBy(q.sort[0]?.desc ? sql`${referralReasons.name} desc` : asc(referralReasons.name), asc(referralReasons.id))
    .limit(q.limit)
    .offset(q.offset);
  return { rows, total: total?.n ?? 0 };
}

export async function addReason(db: Db, values: ReasonValues) {
  const [row] = await db.insert(referralReasons).values(values).returning(columns).catch(taken);
  return row!;
}

export async function updateReason(db: Db, id: number, values: Partial<ReasonValues>) {
  if (Object.keys(values).length === 0) {
    const [row] = await db.select(columns).from(referralReasons).where(eq(referralReasons.id, id));
    return row;
  }
  const [row] = await db
    .update(referralReasons)
    .set(values)
    .where(and(eq(referralReasons.id, id)))
    .returning(columns)
    .catch(taken);
  return row;
}

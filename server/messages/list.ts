/**
 * Messages as staff read them: the list (filters, sort, sponsor scope through the message's
 * engagement), a participant's address on an explicit reveal, and templates' previews. No body
 * is ever answered; a staff recipient is named by username, a participant as "participant".
 */
import { and, sql, type SQL } from 'drizzle-orm';
import { MESSAGE_CHANNELS, type MESSAGE_FILTERS, MESSAGE_KINDS, MESSAGE_STATUSES, type Message, type MessageKind } from '@core/model/message';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId } from '../db/rows';
import { messages } from '../db/schema';
import { sponsorScope } from '../auth/guards';
import { choiceFilter, filterConditions, idFilter, type ListFilters } from '../http/filters';
import { tablePage } from '../http/list';
import type { ListQuery } from '../http/query';
import type { PhiCipher } from '../security/phi';

export function messageScope(user: AuthUser): SQL | undefined {
  const scope = sponsorScope(user);
  if (scope === null) return undefined;
  if (scope.length === 0) return sql`false`;
  return sql`exists (select 1 from engagements e where e.id = ${messages.engagementId} and e.sponsor_id in (${sql.join(
    scope.map((id) => sql`${id}`),
    sql`, `,
  )}))`;
}

const SORT_COLUMNS = { created: messages.created, status: messages.status, kind: messages.kind, attempts: messages.attempts, sentAt: messages.sentAt } as const;
export const MESSAGE_SORT_FIELDS = Object.keys(SORT_COLUMNS) as (keyof typeof SORT_COLUMNS)[];
/** The list's filters: each query parameter and the condition it selects. */
export const MESSAGE_LIST_FILTERS = {
  status: choiceFilter(messages.status, MESSAGE_STATUSES),
  kind: choiceFilter(messages.kind, MESSAGE_KINDS),
  channel: choiceFilter(messages.channel, MESSAGE_CHANNELS),
  engagementId: idFilter(messages.engagementId, 'engagement'),
  referralId: idFilter(messages.referralId, 'referral'),
} satisfies ListFilters<(typeof MESSAGE_FILTERS)[number]>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function messageOf(row: typeof messages.$inferSelect): Message {
  return {
    id: String(row.id),
    kind: row.kind as MessageKind,
    channel: row.channel as Message['channel'],
    audience: row.audience as Message['audience'],
    recipient: row.recipientLabel,
    engagementId: row.engagementId,
    referralId: row.referralId,
    language: row.language,
    subject: row.subject,
    messageId: row.messageId,
    status: row.status as Message['status'],
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: iso(row.nextAttemptAt),
    lastAttemptAt: iso(row.lastAttemptAt),
    sentAt: iso(row.sentAt),
    created: row.created.toISOString(),
  };
}

export async function listMessages(
  db: Db,
  user: AuthUser,
  q: ListQuery<keyof typeof SORT_COLUMNS, typeof MESSAGE_LIST_FILTERS>,
): Promise<{ rows: Message[]; total: number | null }> {
  const where = and(messageScope(user), ...filterConditions(q.filters, MESSAGE_LIST_FILTERS));
  const { rows, total } = await tablePage(db, messages, q, { where, sorts: SORT_COLUMNS, id: messages.id, idDesc: true });
  return { rows: rows.map(messageOf), total };
}

export async function findMessage(db: Db, user: AuthUser, id: number | null): Promise<Message | null> {
  const row = await rowWithId(db.select().from(messages), messages.id, id, messageScope(user));
  return row ? messageOf(row) : null;
}

/** The address a message went (or goes) to, opened; null outside the user's scope. */
export async function revealRecipient(db: Db, phi: PhiCipher, user: AuthUser, id: number | null): Promise<string | null> {
  const row = await rowWithId(db.select({ sealed: messages.toCiphertext }).from(messages), messages.id, id, messageScope(user));
  return row ? phi.open(row.sealed) : null;
}

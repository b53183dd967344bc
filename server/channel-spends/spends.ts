/**
 * Channel spends: stored per media channel, reached through the channel's screener's sponsor
 * (the same scope as the channel itself, screeners/access.ts).
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ChannelSpend } from '@core/model/channelSpend';
import { SPEND_PERIOD_INVALID } from '@core/model/channelSpend';
import { chooseFromList } from '@core/validation/chooseFromList';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { rowWithId, insertedRow } from '../db/rows';
import { channelSpends, mediaChannels, screeners } from '../db/schema';
import { screenerScope } from '../screeners';
import { dateFilter, exactTextFilter, filterConditions, idFilter } from '../http/filters';
import { countOf, joinedPage } from '../http/list';
import type { ListQuery } from '../http/query';

export const UNKNOWN_SPEND_CHANNEL = chooseFromList('a media channel');

/** A spend refused for what it names: the attribute and why. */
export class SpendRefused extends Error {
  readonly attribute: 'mediaChannelId' | 'periodEnd';
  constructor(attribute: 'mediaChannelId' | 'periodEnd', detail: string) {
    super(detail);
    this.attribute = attribute;
  }
}

export const spendColumns = {
  id: channelSpends.id,
  mediaChannelId: channelSpends.mediaChannelId,
  mediaChannelTitle: mediaChannels.title,
  sponsorId: screeners.sponsorId,
  amountMinor: channelSpends.amountMinor,
  currency: channelSpends.currency,
  periodStart: channelSpends.periodStart,
  periodEnd: channelSpends.periodEnd,
  campaign: channelSpends.campaign,
  created: channelSpends.created,
  modified: channelSpends.modified,
};
export type SpendRow = Omit<ChannelSpend, 'id' | 'created' | 'modified'> & { id: number; created: Date; modified: Date };

/** Spends with their channel (for its title) and screener (for the scope): add the conditions. */
export const selectSpends = (db: Db) =>
  db
    .select(spendColumns)
    .from(channelSpends)
    .innerJoin(mediaChannels, eq(mediaChannels.id, channelSpends.mediaChannelId))
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId));

export async function findSpend(db: Db, id: number | null, user: AuthUser): Promise<SpendRow | undefined> {
  return rowWithId(selectSpends(db), channelSpends.id, id, screenerScope(user));
}

async function assertChannel(db: Db, mediaChannelId: number, user: AuthUser): Promise<void> {
  const [channel] = await db
    .select({ id: mediaChannels.id })
    .from(mediaChannels)
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .where(and(eq(mediaChannels.id, mediaChannelId), screenerScope(user)));
  if (!channel) throw new SpendRefused('mediaChannelId', UNKNOWN_SPEND_CHANNEL);
}

type SpendValues = typeof channelSpends.$inferInsert;

/** Stores a spend on a channel the user may reach; answers its id. */
export async function createSpend(db: Db, values: SpendValues, user: AuthUser): Promise<number> {
  await assertChannel(db, values.mediaChannelId, user);
  const row = await insertedRow(db.insert(channelSpends).values(values).returning({ id: channelSpends.id }));
  return row.id;
}

/** Changes a spend; its period, with what the change leaves as it was, must still run forwards. */
export async function updateSpend(db: Db, existing: SpendRow, changes: Partial<SpendValues>, user: AuthUser): Promise<void> {
  if (changes.mediaChannelId !== undefined) await assertChannel(db, changes.mediaChannelId, user);
  if ((changes.periodStart ?? existing.periodStart) > (changes.periodEnd ?? existing.periodEnd)) throw new SpendRefused('periodEnd', SPEND_PERIOD_INVALID);
  await db
    .update(channelSpends)
    .set({ ...changes, modified: sql`now()` })
    .where(eq(channelSpends.id, existing.id));
}

export async function deleteSpend(db: Db, id: number): Promise<void> {
  await db.delete(channelSpends).where(eq(channelSpends.id, id));
}

/** The list's filters: each query parameter and the condition it selects. */
export const SPEND_FILTERS = {
  mediaChannelId: idFilter(channelSpends.mediaChannelId, 'media channel'),
  sponsorId: idFilter(screeners.sponsorId, 'sponsor'),
  currency: exactTextFilter(channelSpends.currency, 3),
  campaign: exactTextFilter(channelSpends.campaign),
  // A spend overlapping the days from `from` to `to`.
  from: dateFilter(channelSpends.periodEnd, 'from'),
  to: dateFilter(channelSpends.periodStart, 'to'),
};

const SPEND_SORT_COLUMNS = {
  periodStart: channelSpends.periodStart,
  periodEnd: channelSpends.periodEnd,
  amountMinor: channelSpends.amountMinor,
  currency: channelSpends.currency,
  campaign: channelSpends.campaign,
  mediaChannelTitle: mediaChannels.title,
  created: channelSpends.created,
  modified: channelSpends.modified,
};

/** One page of the spends the user may reach, in the query's filters and sort. */
export async function spendPage(db: Db, q: ListQuery<keyof typeof SPEND_SORT_COLUMNS, typeof SPEND_FILTERS>, user: AuthUser) {
  const conditions: (SQL | undefined)[] = [screenerScope(user), ...filterConditions(q.filters, SPEND_FILTERS)];
  const counted = countOf(db, channelSpends)
    .innerJoin(mediaChannels, eq(mediaChannels.id, channelSpends.mediaChannelId))
    .innerJoin(screeners, eq(screeners.id, mediaChannels.screenerId))
    .$dynamic();
  return joinedPage(selectSpends(db).$dynamic(), counted, q, { where: and(...conditions), sorts: SPEND_SORT_COLUMNS, id: channelSpends.id });
}

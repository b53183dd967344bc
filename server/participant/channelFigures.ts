/**
 * A media channel's figures, counted in shards (schema: mediaChannelFigures): a count adds to
 * one of SHARDS rows of the channel picked at random, so concurrent participants on one channel
 * wait for each other's commits only when they pick the same row; a figure is the sum of the
 * channel's rows, read for a page of channels at a time.
 */
import { inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/open';
import { mediaChannelFigures } from '../db/schema';

const SHARDS = 16;

/**
 * What each figure counts: `views` the widget seen (once per page load, half of it on screen:
 * POST /participant-views, never the start request), `share` an open of the channel's hosted
 * page, `submissionsStarted` a started submission (its participant saved a page: counted at the
 * first save, participant/entries.ts; the funnel's `started` stage),
 * `submissionsQualified` the submissions currently qualified, `submissionsCompleted` a stored contact,
 * `possibleRetakes` the submissions started that were flagged as a possible retake (counted
 * within submissionsStarted too; participant/retakes.ts).
 */
export const CHANNEL_FIGURES = ['views', 'share', 'submissionsStarted', 'submissionsCompleted', 'submissionsQualified', 'possibleRetakes'] as const;
export type ChannelFigure = (typeof CHANNEL_FIGURES)[number];
export type ChannelFigures = Record<ChannelFigure, number>;

const COLUMN: Record<ChannelFigure, string> = {
  views: 'views',
  share: 'share',
  submissionsStarted: 'submissions_started',
  submissionsCompleted: 'submissions_completed',
  submissionsQualified: 'submissions_qualified',
  possibleRetakes: 'possible_retakes',
};

/**
 * The statement that adds, to each figure of `by`, its amount (a number or an SQL integer; may be
 * negative: a run no longer qualified) for a channel, nothing when the channel is null; alone or
 * inside another statement's WITH, and preparable (the shard is drawn by PostgreSQL, per
 * execution). Figures counted by one statement must go through one of these: two inserts into the
 * figures in one statement may pick the same shard, and then one of them is lost. With `from` (a
 * FROM item with one row per channel), several channels' figures at once, in that item's order.
 */
export function countsStatement(channelId: number | Placeholder | SQL, by: Partial<Record<ChannelFigure, number | SQL>>, from?: SQL): SQL {
  const figures = CHANNEL_FIGURES.filter((f) => by[f] !== undefined);
  const columns = figures.map((f) => sql.raw(`"${COLUMN[f]}"`));
  return sql`insert into ${mediaChannelFigures} (media_channel_id, shard, ${sql.join(columns, sql`, `)})
    select ${channelId}::int, floor(random() * ${SHARDS})::int, ${sql.join(
      figures.map((f) => sql`(${by[f]})::int`),
      sql`, `,
    )}${from ? sql` from ${from}` : sql``} where ${channelId}::int is not null
    on conflict (media_channel_id, shard) do update set ${sql.join(
      columns.map((c) => sql`${c} = ${mediaChannelFigures}.${c} + excluded.${c}`),
      sql`, `,
    )}`;
}

/** countsStatement for one figure. */
export const countStatement = (channelId: number | Placeholder | SQL, figure: ChannelFigure, by: number = 1): SQL =>
  countsStatement(channelId, { [figure]: by });

/** Adds `by` to a channel's figure; nothing without a channel. */
export async function countOnChannel(db: Pick<Db, 'execute'>, channelId: number | null, figure: ChannelFigure, by = 1): Promise<void> {
  if (channelId === null || by === 0) return;
  await db.execute(countStatement(channelId, figure, by));
}

const ZERO: ChannelFigures = { views: 0, share: 0, submissionsStarted: 0, submissionsCompleted: 0, submissionsQualified: 0, possibleRetakes: 0 };

/** The figures of each channel of `ids` (every id answered; never below zero). */
export async function channelFigures(db: Db, ids: readonly number[]): Promise<Map<number, ChannelFigures>> {
  const out = new Map<number, ChannelFigures>(ids.map((id) => [id, { ...ZERO }]));
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      id: mediaChannelFigures.mediaChannelId,
      views: sql<number>`greatest(sum(${mediaChannelFigures.views}), 0)`.mapWith(Number),
      share: sql<number>`greatest(sum(${mediaChannelFigures.share}), 0)`.mapWith(Number),
      submissionsStarted: sql<number>`greatest(sum(${mediaChannelFigures.submissionsStarted}), 0)`.mapWith(Number),
      submissionsCompleted: sql<number>`greatest(sum(${mediaChannelFigures.submissionsCompleted}), 0)`.mapWith(Number),
      submissionsQualified: sql<number>`greatest(sum(${mediaChannelFigures.submissionsQualified}), 0)`.mapWith(Number),
      possibleRetakes: sql<number>`greatest(sum(${mediaChannelFigures.possibleRetakes}), 0)`.mapWith(Number),
    })
    .from(mediaChannelFigures)
    .where(inArray(mediaChannelFigures.mediaChannelId, [...ids]))
    .groupBy(mediaChannelFigures.mediaChannelId);
  for (const { id, ...figures } of rows) out.set(id, figures);
  return out;
}

/**
 * The funnel's rows as staff read them: each group's counts with a label (a channel's title, an
 * engagement's or site's name, a language's name, a day, a week), in the grouping's order —
 * days and weeks in time order, the rest by label, the rows without a key last.
 */
import { inArray } from 'drizzle-orm';
import { FUNNEL_STAGES, viewsTrackedBy, type FunnelCounts, type FunnelGrouping, type FunnelRowAttributes } from '@core/model/funnel';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/open';
import { engagements, languages, mediaChannels, siteLocations } from '../db/schema';
import { funnelCounts, type FunnelRequest } from './counts';

const WITHOUT_KEY: Record<FunnelGrouping, string> = {
  none: 'All',
  mediaChannel: 'No media channel',
  source: 'No source',
  campaign: 'No campaign',
  site: 'No site chosen',
  engagement: 'No engagement',
  language: 'No language',
  day: 'No day',
  week: 'No week',
  hiddenField: 'No value',
};

type IdColumn = AnyPgColumn<{ data: number; notNull: true }>;
type NameColumn = AnyPgColumn<{ data: string; notNull: true }>;

const ids = (keys: readonly string[]) => keys.map(Number).filter((n) => Number.isInteger(n) && n > 0);

/** The names of the groups' keys, for the groupings keyed by id or code. */
async function namesOf(db: Db, groupBy: FunnelGrouping, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const pairs = async (rows: Promise<{ id: number | string; name: string }[]>) => new Map((await rows).map((r) => [String(r.id), r.name]));
  /** The rows of `table` the keys name by id, each with its `name` column. */
  const byId = (table: PgTable, id: IdColumn, name: NameColumn) =>
    pairs(
      db
        .select({ id, name })
        .from(table)
        .where(inArray(id, ids(keys))),
    );
  switch (groupBy) {
    case 'mediaChannel':
      return byId(mediaChannels, mediaChannels.id, mediaChannels.title);
    case 'engagement':
      return byId(engagements, engagements.id, engagements.name);
    case 'site':
      return byId(siteLocations, siteLocations.id, siteLocations.name);
    case 'language':
      return pairs(db.select({ id: languages.isoCode, name: languages.name }).from(languages).where(inArray(languages.isoCode, keys)));
    case 'week':
      return new Map(keys.map((k) => [k, `Week of ${k}`]));
    default:
      return new Map(keys.map((k) => [k, k]));
  }
}

/** A row's counts, before its cost figures join them (core/model/funnelRow.ts is the row answered). */
export type CountedRow = { id: string } & FunnelRowAttributes;

/** `alsoGroups`: groups to answer with zero counts when nothing was counted in them (a channel that spent and drew no one). */
export async function funnelRows(db: Db, request: FunnelRequest, alsoGroups: Iterable<string | null> = []): Promise<CountedRow[]> {
  const groups = await funnelCounts(db, request);
  for (const group of alsoGroups) {
    if (!groups.some((g) => g.group === group)) groups.push({ group, counts: Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as FunnelCounts });
  }
  const names = await namesOf(
    db,
    request.groupBy,
    groups.flatMap((g) => (g.group === null ? [] : [g.group])),
  );
  const rows: CountedRow[] = groups.map(({ group, counts }) => ({
    id: group ?? '-',
    group,
    // Where views cannot be told apart (core's VIEWS_NOT_TRACKED_BY), all of them are in the row without a key.
    label: group === null ? `${WITHOUT_KEY[request.groupBy]}${viewsTrackedBy(request.groupBy) ? '' : ' (and every view)'}` : (names.get(group) ?? group),
    ...counts,
    viewed: group === null || viewsTrackedBy(request.groupBy) ? counts.viewed : null,
  }));
  const inTime = request.groupBy === 'day' || request.groupBy === 'week';
  return rows.sort((a, b) => {
    if ((a.group === null) !== (b.group === null)) return a.group === null ? 1 : -1;
    if (inTime) return (a.group ?? '').localeCompare(b.group ?? '');
    return a.label.localeCompare(b.label, 'en', { numeric: true }) || (a.group ?? '').localeCompare(b.group ?? '');
  });
}

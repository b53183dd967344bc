/**
 * Counting a view: the channel's `views` figure and the funnel's `viewed` stage, in one
 * statement, so the two never disagree. The funnel keeps views per day and per what it filters
 * and groups by (schema: funnelViews) — its engagement, sponsor, screener, channel, survey,
 * language and campaign — counted in one of several shards picked at random, like the channel
 * figures, so concurrent views of one survey rarely wait for each other.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { countStatement } from './channelFigures';

const SHARDS = 8;

export interface ViewFacts {
  /** The day the view happened on (UTC), from the server's clock. */
  at: Date;
  mediaChannelId: number | null;
  screenerId: number | null;
  /** The survey version shown, null when nothing could run. */
  oFormId: number | null;
  language: string;
  utmSource?: string | null;
  utmCampaign?: string | null;
}

export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Counts one view (channel figure and funnel stage together). */
export async function countView(db: Pick<Db, 'execute'>, view: ViewFacts): Promise<void> {
  const day = dayOf(view.at);
  const source = view.utmSource ?? null;
  const campaign = view.utmCampaign ?? null;
  const dimensions = JSON.stringify([day, view.oFormId, view.mediaChannelId, view.screenerId, view.language, source, campaign]);
  const channel = view.mediaChannelId === null ? sql`` : sql`, channel as (${countStatement(view.mediaChannelId, 'views')})`;
  await db.execute(sql`
    with counted as (
      insert into funnel_views (dimensions, shard, day, sponsor_id, engagement_id, screener_id, media_channel_id, o_form_id, o_form_identity, language, utm_source, utm_campaign, views)
      select ${dimensions}, floor(random() * ${SHARDS})::int, ${day}::date, coalesce(e.sponsor_id, sc.sponsor_id), f.engagement_id,
             ${view.screenerId}::int, ${view.mediaChannelId}::int, ${view.oFormId}::int, f.identity, ${view.language}, ${source}::text, ${campaign}::text, 1
      from (select 1) as one
      left join o_forms f on f.id = ${view.oFormId}::int
      left join engagements e on e.id = f.engagement_id
      left join screeners sc on sc.id = ${view.screenerId}::int
      on conflict (dimensions, shard) do update set views = funnel_views.views + 1
      returning 1
    )${channel}
    select 1`);
}

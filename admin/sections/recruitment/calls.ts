/**
 * The calls the Recruitment screen makes for a query, in one place: the screen makes them, and
 * the route asks for them ahead while the screen's code loads (routing/ahead.ts).
 */
import type { ApiClient } from '@core/api/client';
import { engagementsApi } from '@core/api/engagements';
import { funnelApi } from '@core/api/funnel';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { surveysApi } from '@core/api/surveys';
import { screenersApi } from '@core/api/screeners';
import { siteLocationsApi } from '@core/api/siteLocations';
import type { ListParams } from '@core/jsonapi';
import { funnelParams, readFunnelQuery, type FunnelFilterValues, type FunnelQuery } from '../../components/funnel/funnelQuery';
import { SPONSOR_OPTION_PARAMS } from '../../hooks/useSponsorOptions';
import { quietly, type Ahead } from '../../routing/ahead';

export interface FunnelCalls {
  total: ListParams;
  trend: ListParams;
  /** Null when ungrouped (the breakdown is the total's one row, not asked for twice) or grouped by a hidden field not chosen yet. */
  breakdown: ListParams | null;
  /** Grouped by a hidden field whose name is not chosen yet. */
  fieldMissing: boolean;
}

export function funnelCalls(query: FunnelQuery): FunnelCalls {
  const fieldMissing = query.groupBy === 'hiddenField' && !query.hiddenField;
  return {
    total: funnelParams(query.filters, 'none'),
    trend: funnelParams(query.filters, query.trend),
    breakdown: fieldMissing || query.groupBy === 'none' ? null : funnelParams(query.filters, query.groupBy, query.hiddenField),
    fieldMissing,
  };
}

/** The filters' option lists, each narrowed by the wider choices made. */
export function optionCalls({ sponsorId, screenerId, engagementId }: FunnelFilterValues) {
  const bySponsor = sponsorId ? { sponsorId } : {};
  return {
    engagements: { limit: 1000, sort: 'name', ...bySponsor },
    screeners: { limit: 1000, sort: 'title', ...bySponsor },
    channels: { limit: 1000, sort: 'title', ...bySponsor, ...(screenerId ? { screenerId } : {}) },
    surveys: { currentOnly: true, limit: 1000, sort: 'title', ...bySponsor },
    // Sites linked to the chosen engagement, else to the chosen sponsor's engagements.
    sites: { limit: 1000, sort: 'name', ...(engagementId ? { engagementId } : bySponsor) },
  } satisfies Record<string, ListParams>;
}

export const recruitmentAhead: Ahead = ({ client, search }: { client: ApiClient; search: URLSearchParams }) => {
  const query = readFunnelQuery(search);
  const funnel = funnelApi(client);
  const calls = funnelCalls(query);
  const options = optionCalls(query.filters);
  quietly(
    funnel.rows(calls.total),
    funnel.rows(calls.trend),
    ...(calls.breakdown ? [funnel.rows(calls.breakdown)] : []),
    client.list('sponsors', SPONSOR_OPTION_PARAMS),
    engagementsApi(client).list(options.engagements),
    screenersApi(client).list(options.screeners),
    mediaChannelsApi(client).list(options.channels),
    surveysApi(client).list(options.surveys),
    siteLocationsApi(client).list(options.sites),
  );
};

/**
 * The Recruitment screen's state in the URL's query string, so a reload, Back or a link from
 * another screen (the funnel panels) shows the same funnel: the API's filters under their own
 * names, `groupBy` for the breakdown (with `hiddenField`, the field's name, when grouped by one)
 * and `trend` (day or week) for the trend chart.
 */
import { FUNNEL_FILTERS, FUNNEL_GROUPINGS, type FunnelFilter, type FunnelGrouping } from '@core/model/funnel';
import { HIDDEN_FIELD_NAME } from '@core/model/mediaChannel';
import type { ListParams } from '@core/jsonapi';
import { pathTo } from '../../routing/routes';

export const TREND_PERIODS = ['week', 'day'] as const;
export type TrendPeriod = (typeof TREND_PERIODS)[number];
export const DEFAULT_TREND: TrendPeriod = 'week';

export type FunnelFilterValues = Partial<Record<FunnelFilter, string>>;

export interface FunnelQuery {
  filters: FunnelFilterValues;
  groupBy: FunnelGrouping;
  /** With groupBy hiddenField: the field's name, once one is chosen. */
  hiddenField?: string;
  trend: TrendPeriod;
}

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T => (values as readonly string[]).includes(value);

/** The query a URL holds; anything unknown or malformed falls back to the default. */
export function readFunnelQuery(params: URLSearchParams): FunnelQuery {
  const filters: FunnelFilterValues = {};
  for (const name of FUNNEL_FILTERS) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  const groupBy = params.get('groupBy') ?? '';
  const hiddenField = params.get('hiddenField')?.trim() ?? '';
  const trend = params.get('trend') ?? '';
  return {
    filters,
    groupBy: isOneOf(FUNNEL_GROUPINGS, groupBy) ? groupBy : 'none',
    ...(groupBy === 'hiddenField' && HIDDEN_FIELD_NAME.test(hiddenField) ? { hiddenField } : {}),
    trend: isOneOf(TREND_PERIODS, trend) ? trend : DEFAULT_TREND,
  };
}

/** The query string for `query`, defaults left out, in a fixed order. */
export function writeFunnelQuery(query: FunnelQuery): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of FUNNEL_FILTERS) {
    const value = query.filters[name]?.trim();
    if (value) out.set(name, value);
  }
  if (query.groupBy !== 'none') out.set('groupBy', query.groupBy);
  if (query.groupBy === 'hiddenField' && query.hiddenField) out.set('hiddenField', query.hiddenField);
  if (query.trend !== DEFAULT_TREND) out.set('trend', query.trend);
  return out;
}

/** GET /api/recruitment-funnel's parameters for these filters, grouped by `groupBy` (a hidden field's: named `hiddenField`). */
export const funnelParams = (filters: FunnelFilterValues, groupBy: FunnelGrouping, hiddenField?: string): ListParams =>
  // The screen's own query without its trend period: the same names and the same trimming.
  Object.fromEntries(writeFunnelQuery({ filters, groupBy, hiddenField, trend: DEFAULT_TREND }));

/** The Recruitment screen, narrowed to these filters (and grouped). */
export function recruitmentPath(filters: FunnelFilterValues, groupBy: FunnelGrouping = 'none'): string {
  const search = writeFunnelQuery({ filters, groupBy, trend: DEFAULT_TREND }).toString();
  return search ? `${pathTo('Recruitment')}?${search}` : pathTo('Recruitment');
}

/**
 * GET /api/recruitment-funnel: the funnel's stage counts (server/funnel/), one `funnel-rows`
 * resource per group, with the stages' definitions in meta. Any member of staff; what they see
 * is their sponsors' (sponsor scope). Cost per outcome from the channel spends (funnel/costs.ts). CSV with `Accept: text/csv` (http/csvLists.ts).
 */
import { Hono } from 'hono';
import {
  FUNNEL_DEFINITIONS,
  FUNNEL_FILTERS,
  FUNNEL_GROUPINGS,
  FUNNEL_ROW_TYPE,
  rowCounts,
  type FunnelFilter,
  type FunnelGroupBy,
  type FunnelGrouping,
} from '@core/model/funnel';
import { FUNNEL_ROW } from '@core/model/funnelRow';
import { HIDDEN_FIELD_NAME } from '@core/model/mediaChannel';
import { isIsoDate } from '@core/validation/isoDate';
import type { AppEnv, Deps } from '../context';
import { authenticate, sponsorScope } from '../auth/guards';
import { badRequest } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument, toResource } from '../http/serialize';
import { funnelRows } from './rows';
import { declaresHiddenField, type FunnelFilters } from './counts';
import { costFigures, funnelSpends } from './costs';
import { describe } from '../openapi/describe';

const ID_FILTERS = ['sponsorId', 'engagementId', 'screenerId', 'mediaChannelId', 'siteLocationId'] as const;

/** The parameter naming the hidden field of `groupBy=hiddenField`. */
const HIDDEN_FIELD = 'hiddenField';

/**
 * The filters and grouping of a query string; anything unknown or unreadable is a 400 naming it.
 * Grouping by a hidden field is `groupBy=hiddenField&hiddenField=<name>`: the groupings stay one
 * closed list, and the name is a parameter of its own that a 400 can point at.
 */
export function parseFunnelQuery(params: URLSearchParams): { filters: FunnelFilters; grouping: FunnelGroupBy } {
  const filters: FunnelFilters = {};
  let groupBy: FunnelGrouping = 'none';
  let hiddenField: string | undefined;
  for (const name of new Set(params.keys())) {
    if (params.getAll(name).length > 1) throw badRequest(`'${name}' may be given only once.`, name);
    const value = (params.get(name) ?? '').trim();
    if (name === 'groupBy') {
      if (value === '') continue;
      if (!(FUNNEL_GROUPINGS as readonly string[]).includes(value)) throw badRequest(`'groupBy' must be one of: ${FUNNEL_GROUPINGS.join(', ')}.`, 'groupBy');
      groupBy = value as FunnelGrouping;
      continue;
    }
    if (name === HIDDEN_FIELD) {
      if (!HIDDEN_FIELD_NAME.test(value)) throw badRequest(`'${HIDDEN_FIELD}' must be the name of a media channel's hidden field.`, HIDDEN_FIELD);
      hiddenField = value;
      continue;
    }
    if (!(FUNNEL_FILTERS as readonly string[]).includes(name)) {
      throw badRequest(`Unknown query parameter '${name}'. Filter by one of: ${FUNNEL_FILTERS.join(', ')}, or group with groupBy.`, name);
    }
    if (value === '') continue;
    const filter = name as FunnelFilter;
    if ((ID_FILTERS as readonly string[]).includes(filter)) {
      const id = parseId(value);
      if (id === null) throw badRequest(`'${name}' must be an id.`, name);
      filters[filter as (typeof ID_FILTERS)[number]] = id;
    } else if (filter === 'from' || filter === 'to') {
      if (!isIsoDate(value)) throw badRequest(`'${name}' must be a date such as 2026-11-22.`, name);
      filters[filter] = value;
    } else if (filter === 'oFormIdentity') {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw badRequest("'oFormIdentity' is not a survey identity.", name);
      filters.oFormIdentity = value;
    }
  }
  if (filters.from !== undefined && filters.to !== undefined && filters.from > filters.to) throw badRequest("'from' must be on or before 'to'.", 'from');
  if (groupBy !== 'hiddenField') {
    if (hiddenField !== undefined) throw badRequest(`'${HIDDEN_FIELD}' goes with groupBy=hiddenField.`, HIDDEN_FIELD);
    return { filters, grouping: { groupBy } };
  }
  if (hiddenField === undefined) throw badRequest(`Grouping by hidden field needs the field's name: add ${HIDDEN_FIELD}=<name>.`, HIDDEN_FIELD);
  return { filters, grouping: { groupBy, hiddenField } };
}

export function recruitmentFunnelRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  const funnel = describe({
    summary: 'The recruitment funnel: stage counts, grouped',
    query: Object.fromEntries([
      ...FUNNEL_FILTERS.map((f) => [f, 'Filter.']),
      ['groupBy', `One of: ${FUNNEL_GROUPINGS.join(', ')}.`],
      [
        HIDDEN_FIELD,
        "With groupBy=hiddenField (and only then): the hidden field's name, declared by a media channel within the sponsor scope and the sponsor, screener and channel filters.",
      ],
    ]),
    answer: { list: FUNNEL_ROW },
  });
  app.get('/', funnel, async (c) => {
    const { filters, grouping } = parseFunnelQuery(new URL(c.req.url).searchParams);
    const scope = { filters, sponsorScope: sponsorScope(c.get('user')) };
    if (grouping.groupBy === 'hiddenField' && !(await declaresHiddenField(deps.db, scope, grouping.hiddenField))) {
      throw badRequest(`No media channel in scope declares the hidden field '${grouping.hiddenField}'.`, HIDDEN_FIELD);
    }
    const spends = await funnelSpends(deps.db, { ...scope, ...grouping });
    const rows = await funnelRows(deps.db, { ...scope, ...grouping }, spends?.keys());
    return sendDocument(c, {
      data: rows.map(({ id, ...attributes }) =>
        toResource(FUNNEL_ROW_TYPE, id, { ...attributes, ...costFigures(spends, attributes.group, rowCounts(attributes)) }),
      ),
      meta: { total: rows.length, ...grouping, definitions: FUNNEL_DEFINITIONS },
    });
  });

  return app;
}

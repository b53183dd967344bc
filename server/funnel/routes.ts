/**
 * GET /api/recruitment-funnel: the funnel's stage counts (server/funnel/), one `funnel-rows`
 * resource per group, with the stages' definitions in meta. Any member of staff; what they see
 * is their sponsors' (sponsor scope). Cost per outcome from the channel spends (funnel/costs.ts). CSV with `Accept: text/csv` (http/csvLists.ts).
 */
import { Hono } from 'hono';
import { FUNNEL_DEFINITIONS, FUNNEL_GROUPINGS, FUNNEL_ROW_TYPE, rowCounts, type FunnelFilter, type FunnelGroupBy } from '@core/model/funnel';
import { FUNNEL_ROW } from '@core/model/funnelRow';
import { HIDDEN_FIELD_NAME } from '@core/model/mediaChannel';
import { SURVEY_IDENTITY } from '@core/model/screenerSurvey';
import type { AppEnv, Deps } from '../context';
import { authenticate, sponsorScope } from '../auth/guards';
import { badRequest } from '../http/errors';
import { choiceParam, dayParam, idParam, patternParam, type ParamValues, type QueryParam } from '../http/params';
import { sendDocument, toResource } from '../http/serialize';
import { funnelRows } from './rows';
import { declaresHiddenField, type FunnelFilters } from './counts';
import { costFigures, funnelSpends } from './costs';
import { describe } from '../openapi/describe';

/** The parameter naming the hidden field of `groupBy=hiddenField`. */
const HIDDEN_FIELD = 'hiddenField';

const FUNNEL_FILTER_PARAMS = {
  sponsorId: idParam('sponsor'),
  engagementId: idParam('engagement'),
  screenerId: idParam('screener'),
  mediaChannelId: idParam('media channel'),
  oFormIdentity: patternParam(SURVEY_IDENTITY, 'a survey identity', "Only the runs of this survey (its identity, every version's)."),
  siteLocationId: idParam('site location'),
  from: dayParam('from'),
  to: dayParam('to'),
} satisfies Record<FunnelFilter, QueryParam<unknown>>;

/**
 * The funnel's query: its filters, its grouping and, with `groupBy=hiddenField`, the hidden
 * field's name (a parameter of its own, so the groupings stay one closed list and a 400 can point
 * at the name). Parsed and described from this one record.
 */
export const FUNNEL_QUERY = {
  ...FUNNEL_FILTER_PARAMS,
  groupBy: choiceParam(FUNNEL_GROUPINGS, 'How the rows are grouped (none: one row).'),
  [HIDDEN_FIELD]: patternParam(
    HIDDEN_FIELD_NAME,
    "the name of a media channel's hidden field",
    "With groupBy=hiddenField (and only then): the hidden field's name, declared by a media channel within the sponsor scope and the sponsor, screener and channel filters.",
  ),
};

/** The filters and grouping of the funnel's parsed query; a range or grouping that does not hold together is a 400 naming it. */
export function funnelQueryOf(query: ParamValues<typeof FUNNEL_QUERY>): { filters: FunnelFilters; grouping: FunnelGroupBy } {
  const { groupBy = 'none', hiddenField, ...filters } = query;
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
    query: FUNNEL_QUERY,
    answer: { list: FUNNEL_ROW },
  });
  app.get('/', funnel, async (c) => {
    const { filters, grouping } = funnelQueryOf(c.var.query);
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

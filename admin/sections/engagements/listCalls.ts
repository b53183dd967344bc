/** The Engagements list's query and its filters' options, in one place: the screen reads them, and the route asks for them ahead (routing/ahead.ts). */
import { engagementsApi } from '@core/api/engagements';
import { lookupsApi } from '@core/api/lookups';
import { sponsorsApi } from '@core/api/sponsors';
import { ENGAGEMENT_DEFAULT_SORT, ENGAGEMENT_SORTS } from '@core/model/engagement';
import { LOOKUP_TYPES } from '@core/model/lookup';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { SPONSOR_OPTION_PARAMS } from '../../hooks/useSponsorOptions';
import { quietly, type Ahead } from '../../routing/ahead';

export const ENGAGEMENT_LIST: ListQueryOptions = {
  defaultSort: ENGAGEMENT_DEFAULT_SORT,
  sortable: ENGAGEMENT_SORTS,
  filterNames: ['sponsorId', 'isActive', 'phase', 'therapeuticAreaId', 'startDateFrom', 'endDateTo'],
};

export const engagementsAhead: Ahead = ({ client, search }) =>
  quietly(
    engagementsApi(client).list(firstPageParams(search, ENGAGEMENT_LIST)),
    sponsorsApi(client).list(SPONSOR_OPTION_PARAMS),
    lookupsApi(client).all(LOOKUP_TYPES.therapeuticAreas),
  );

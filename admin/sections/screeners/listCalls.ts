/** The Screeners list's query and its sponsor options, in one place: the screen reads them, and the route asks for them ahead (routing/ahead.ts). */
import { screenersApi } from '@core/api/screeners';
import { sponsorsApi } from '@core/api/sponsors';
import { SCREENER_DEFAULT_SORT, SCREENER_SORTS } from '@core/model/screener';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { SPONSOR_OPTION_PARAMS } from '../../hooks/useSponsorOptions';
import { quietly, type Ahead } from '../../routing/ahead';

export const SCREENER_LIST: ListQueryOptions = { defaultSort: SCREENER_DEFAULT_SORT, sortable: SCREENER_SORTS, filterNames: ['sponsorId', 'isActive'] };

export const screenersAhead: Ahead = ({ client, search }) =>
  quietly(screenersApi(client).list(firstPageParams(search, SCREENER_LIST)), sponsorsApi(client).list(SPONSOR_OPTION_PARAMS));

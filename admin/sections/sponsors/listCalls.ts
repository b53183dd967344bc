/** The Sponsors list's query, in one place: the screen reads it, and the route asks for its page ahead (routing/ahead.ts). */
import { sponsorsApi } from '@core/api/sponsors';
import { SPONSOR_DEFAULT_SORT, SPONSOR_SORTS } from '@core/model/sponsor';
import { activeFilter, filterNames } from '../../components/list/filters';
import { readListQuery, toListParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const SPONSOR_FILTERS = [activeFilter()];

export const SPONSOR_LIST: ListQueryOptions = {
  defaultSort: SPONSOR_DEFAULT_SORT,
  sortable: SPONSOR_SORTS,
  filterNames: filterNames(SPONSOR_FILTERS),
};

export const sponsorsAhead: Ahead = ({ client, search }) => quietly(sponsorsApi(client).list(toListParams(readListQuery(search, SPONSOR_LIST))));

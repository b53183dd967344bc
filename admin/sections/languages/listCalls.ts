/** The Languages list's query, in one place: the screen reads it, and the route asks for its page ahead (routing/ahead.ts). */
import { languagesApi } from '@core/api/languages';
import { LANGUAGE_DEFAULT_LIMIT, LANGUAGE_DEFAULT_SORT, LANGUAGE_SORTS } from '@core/model/language';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const LANGUAGE_LIST: ListQueryOptions = {
  filterNames: ['isActive'],
  defaultSort: LANGUAGE_DEFAULT_SORT,
  sortable: LANGUAGE_SORTS,
  defaultLimit: LANGUAGE_DEFAULT_LIMIT,
};

export const languagesAhead: Ahead = ({ client, search }) => quietly(languagesApi(client).list(firstPageParams(search, LANGUAGE_LIST)));

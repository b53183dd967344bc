/** The Generic Messages list's query, in one place: the screen reads it, and the route asks for its page ahead (routing/ahead.ts). */
import { genericMessagesApi } from '@core/api/genericMessages';
import { GENERIC_MESSAGE_DEFAULT_LIMIT, GENERIC_MESSAGE_DEFAULT_SORT, GENERIC_MESSAGE_SORTS } from '@core/model/genericMessage';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const GENERIC_MESSAGE_LIST: ListQueryOptions = {
  defaultSort: GENERIC_MESSAGE_DEFAULT_SORT,
  sortable: GENERIC_MESSAGE_SORTS,
  defaultLimit: GENERIC_MESSAGE_DEFAULT_LIMIT,
  filterNames: ['messageType'],
};

export const genericMessagesAhead: Ahead = ({ client, search }) => quietly(genericMessagesApi(client).list(firstPageParams(search, GENERIC_MESSAGE_LIST)));

/** The Users list's query, in one place: the screen reads it, and the route asks for its page ahead (routing/ahead.ts). */
import { usersApi } from '@core/api/users';
import { USER_DEFAULT_SORT, USER_SORTS } from '@core/model/user';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const USER_LIST: ListQueryOptions = { defaultSort: USER_DEFAULT_SORT, sortable: USER_SORTS, filterNames: ['isActive'] };

export const usersAhead: Ahead = ({ client, search }) => quietly(usersApi(client).list(firstPageParams(search, USER_LIST)));

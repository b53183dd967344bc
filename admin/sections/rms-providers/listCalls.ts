/** The Record Systems list's query, in one place: the screen reads it, and the route asks for its page ahead (routing/ahead.ts). */
import { rmsProvidersApi } from '@core/api/rmsProviders';
import { RMS_PROVIDER_DEFAULT_SORT, RMS_PROVIDER_SORTS } from '@core/model/rmsProvider';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const RMS_PROVIDER_LIST: ListQueryOptions = { defaultSort: RMS_PROVIDER_DEFAULT_SORT, sortable: RMS_PROVIDER_SORTS, defaultLimit: 20 };

export const rmsProvidersAhead: Ahead = ({ client, search }) => quietly(rmsProvidersApi(client).list(firstPageParams(search, RMS_PROVIDER_LIST)));

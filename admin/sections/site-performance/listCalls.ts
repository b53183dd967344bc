/** The Site Performance list's query, in one place: the screen reads it, and the route asks for its page ahead (routing/ahead.ts). */
import { sitePerformanceApi } from '@core/api/referrals';
import { SITE_PERFORMANCE_SORTS } from '@core/model/sitePerformance';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const SITE_PERFORMANCE_LIST: ListQueryOptions = { defaultSort: 'siteName', sortable: SITE_PERFORMANCE_SORTS, filterNames: ['from', 'to'] };

export const sitePerformanceAhead: Ahead = ({ client, search }) => quietly(sitePerformanceApi(client).list(firstPageParams(search, SITE_PERFORMANCE_LIST)));

/** The work queue's query, in one place: the screen reads it, and the route asks for its page ahead (routing/ahead.ts). */
import { referralsApi } from '@core/api/referrals';
import { readListQuery, toListParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const REFERRAL_FILTERS = ['engagementId', 'siteLocationId', 'status', 'overdue', 'stale', 'createdFrom', 'createdTo'] as const;
export const REFERRAL_SORTS = ['due', 'created', 'status', 'statusChanged', 'lastAttemptAt', 'attempts', 'engagementName', 'siteName'] as const;

export const REFERRAL_LIST: ListQueryOptions = { defaultSort: 'due', sortable: REFERRAL_SORTS, filterNames: REFERRAL_FILTERS };

export const referralsAhead: Ahead = ({ client, search }) => quietly(referralsApi(client).list(toListParams(readListQuery(search, REFERRAL_LIST))));

/** The work queue's query and its filters' options, in one place: the screen reads them, and the route asks for them ahead (routing/ahead.ts). */
import { engagementsApi } from '@core/api/engagements';
import { referralsApi } from '@core/api/referrals';
import { siteLocationsApi } from '@core/api/siteLocations';
import type { ListParams } from '@core/jsonapi';
import { readListQuery, toListParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { onlySiteCoordinator } from '../../access';
import { ENGAGEMENT_OPTION_PARAMS } from '../../hooks/optionCalls';
import { quietly, type Ahead } from '../../routing/ahead';

export const REFERRAL_FILTERS = ['engagementId', 'siteLocationId', 'status', 'overdue', 'stale', 'createdFrom', 'createdTo'] as const;
export const REFERRAL_SORTS = ['due', 'created', 'status', 'statusChanged', 'lastAttemptAt', 'attempts', 'engagementName', 'siteName'] as const;

export const REFERRAL_LIST: ListQueryOptions = { defaultSort: 'due', sortable: REFERRAL_SORTS, filterNames: REFERRAL_FILTERS };

/** The sites to narrow by: those of the chosen engagement, if one is. */
export const referralSiteParams = (engagementId: string | undefined): ListParams => ({ limit: 1000, sort: 'name', ...(engagementId ? { engagementId } : {}) });

/** A Site Coordinator's queue is their sites' already: the server opens them no engagement or site list. */
export const referralsAhead: Ahead = ({ client, user, search }) => {
  const query = readListQuery(search, REFERRAL_LIST);
  quietly(
    referralsApi(client).list(toListParams(query)),
    ...(onlySiteCoordinator(user)
      ? []
      : [engagementsApi(client).list(ENGAGEMENT_OPTION_PARAMS), siteLocationsApi(client).list(referralSiteParams(query.filters.engagementId))]),
  );
};

/** The Leads list's query and its filters' options, in one place: the screen reads them, and the route asks for them ahead (routing/ahead.ts). */
import { engagementsApi } from '@core/api/engagements';
import { leadsApi } from '@core/api/leads';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { screenersApi } from '@core/api/screeners';
import { LEAD_DEFAULT_SORT, LEAD_FILTERS, LEAD_SORTS } from '@core/model/lead';
import { hasRole, type User } from '@core/model/user';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { CHANNEL_OPTION_PARAMS, ENGAGEMENT_OPTION_PARAMS, SCREENER_OPTION_PARAMS } from '../../hooks/optionCalls';
import { quietly, type Ahead } from '../../routing/ahead';

export const LEAD_LIST: ListQueryOptions = { defaultSort: LEAD_DEFAULT_SORT, sortable: LEAD_SORTS, filterNames: LEAD_FILTERS };

/** A Site Coordinator reads leads but not the engagement, screener and channel lists (403): ids then. */
export const readsLeadOptionLists = (user: User | null): boolean => hasRole(user, 'Admin', 'Super User', 'User');

export const leadsAhead: Ahead = ({ client, user, search }) =>
  quietly(
    leadsApi(client).list(firstPageParams(search, LEAD_LIST)),
    ...(readsLeadOptionLists(user)
      ? [
          engagementsApi(client).list(ENGAGEMENT_OPTION_PARAMS),
          screenersApi(client).list(SCREENER_OPTION_PARAMS),
          mediaChannelsApi(client).list(CHANNEL_OPTION_PARAMS),
        ]
      : []),
  );

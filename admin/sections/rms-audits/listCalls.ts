/** The RMS audits' query and its filters' options, in one place: the screen reads them, and the route asks for them ahead (routing/ahead.ts). */
import { engagementsApi } from '@core/api/engagements';
import { rmsAuditsApi } from '@core/api/rmsAudits';
import { rmsProvidersApi } from '@core/api/rmsProviders';
import { RMS_AUDIT_DEFAULT_SORT, RMS_AUDIT_SORTS } from '@core/model/rmsAudit';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { ENGAGEMENT_OPTION_PARAMS, RMS_PROVIDER_OPTION_PARAMS } from '../../hooks/optionCalls';
import { quietly, type Ahead } from '../../routing/ahead';

/** The URL's filter parameters, as the API takes them. */
export const RMS_AUDIT_FILTERS = ['status', 'rmsProviderId', 'engagementId', 'from', 'to'] as const;

export const RMS_AUDIT_LIST: ListQueryOptions = { defaultSort: RMS_AUDIT_DEFAULT_SORT, sortable: RMS_AUDIT_SORTS, filterNames: RMS_AUDIT_FILTERS };

export const rmsAuditsAhead: Ahead = ({ client, search }) =>
  quietly(
    rmsAuditsApi(client).list(firstPageParams(search, RMS_AUDIT_LIST)),
    rmsProvidersApi(client).list(RMS_PROVIDER_OPTION_PARAMS),
    engagementsApi(client).list(ENGAGEMENT_OPTION_PARAMS),
  );

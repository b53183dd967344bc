import { engagementsApi } from '@core/api/engagements';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The engagement named by the route's :engagementId. */
export const useEngagement = () => useRouteRecord(engagementsApi, (api, id) => api.get(id), 'engagementId');

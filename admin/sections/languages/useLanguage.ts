import { languagesApi } from '@core/api/languages';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The language named by the route's :id. */
export const useLanguage = () => useRouteRecord(languagesApi, (api, id) => api.get(id));

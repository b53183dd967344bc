import { surveysApi } from '@core/api/surveys';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The version of the route's :id with its pages and questions. */
export const useSurveyDetail = () => useRouteRecord(surveysApi, (api, id) => api.detail(id));

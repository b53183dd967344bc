import { legacySurveysApi } from '@core/api/legacySurveys';
import { useRouteRecord } from '../../hooks/useRouteRecord';

/** The survey of the route's :id, with its pages, questions and options. */
export const useLegacySurvey = () => useRouteRecord(legacySurveysApi, (api, id) => api.get(id));

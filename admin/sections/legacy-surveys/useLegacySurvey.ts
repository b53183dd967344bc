import { useParams } from 'react-router-dom';
import { legacySurveysApi } from '@core/api/legacySurveys';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';

/** The survey of the route's :id, with its pages, questions and options. */
export function useLegacySurvey() {
  const { id = '' } = useParams();
  const api = useApi(legacySurveysApi);
  return useAsync(() => api.get(id), [api, id]);
}

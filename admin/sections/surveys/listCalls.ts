/** The Versioned Surveys list's query and its sponsor options, in one place: the screen reads them, and the route asks for them ahead (routing/ahead.ts). */
import { surveysApi } from '@core/api/surveys';
import { sponsorsApi } from '@core/api/sponsors';
import { OFORM_DEFAULT_SORT, OFORM_SORTS } from '@core/model/surveyDoc';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { SPONSOR_OPTION_PARAMS } from '../../hooks/useSponsorOptions';
import { quietly, type Ahead } from '../../routing/ahead';

export const VERSIONED_SURVEY_LIST: ListQueryOptions = { defaultSort: OFORM_DEFAULT_SORT, sortable: OFORM_SORTS, filterNames: ['sponsorId', 'isActive'] };

export const versionedSurveysAhead: Ahead = ({ client, search }) =>
  quietly(surveysApi(client).list(firstPageParams(search, VERSIONED_SURVEY_LIST)), sponsorsApi(client).list(SPONSOR_OPTION_PARAMS));

/** The Surveys list's query and its sponsor and engagement options, in one place: the screen reads them, and the route asks for them ahead (routing/ahead.ts). */
import { engagementsApi } from '@core/api/engagements';
import { legacySurveysApi } from '@core/api/legacySurveys';
import { sponsorsApi } from '@core/api/sponsors';
import { SURVEY_DEFAULT_SORT, SURVEY_SORTS } from '@core/model/legacySurvey';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { SPONSOR_OPTION_PARAMS } from '../../hooks/useSponsorOptions';
import { quietly, type Ahead } from '../../routing/ahead';

export const SURVEY_LIST: ListQueryOptions = { defaultSort: SURVEY_DEFAULT_SORT, sortable: SURVEY_SORTS, filterNames: ['sponsorId', 'isActive'] };

/** The engagements a new survey may belong to, with their identification to tell like names apart. */
export const SURVEY_ENGAGEMENT_PARAMS = { limit: 1000, sort: 'name', fields: 'name,fullIdentification' };

export const surveysAhead: Ahead = ({ client, search }) =>
  quietly(
    legacySurveysApi(client).list(firstPageParams(search, SURVEY_LIST)),
    sponsorsApi(client).list(SPONSOR_OPTION_PARAMS),
    engagementsApi(client).list(SURVEY_ENGAGEMENT_PARAMS),
  );

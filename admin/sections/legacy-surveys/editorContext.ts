/** What every part of the legacy survey editor works with: the survey as the server kept it and the lists its pickers offer. */
import type { legacySurveysApi } from '@core/api/legacySurveys';
import type { Language } from '@core/model/language';
import type { Survey, SurveyPage } from '@core/model/legacySurvey';
import type { OptionsState } from '../../hooks/useOptions';

export type Api = ReturnType<typeof legacySurveysApi>;

export interface EditorContext {
  api: Api;
  survey: Survey;
  pages: SurveyPage[];
  /** Reads the survey again after a change. */
  refresh: () => Promise<void>;
  categories: OptionsState;
  tags: OptionsState;
  languages: Language[];
  engagements: OptionsState;
}

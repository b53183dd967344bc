import type { SurveyDetail, surveysApi } from '@core/api/surveys';
import type { Question } from '@core/model/surveyDoc';
import type { OptionsState } from '../../hooks/useOptions';
import type { BuilderHistory } from './history';

export type SurveysApi = ReturnType<typeof surveysApi>;

/** What every part of the builder reads: the version, and how to change it. */
export interface EditorContext {
  api: SurveysApi;
  detail: SurveyDetail;
  /** Approved once: nothing but isActive may change. */
  frozen: boolean;
  /** The API iso code whose translations are being edited; null for the default language. */
  language: string | null;
  /** Reads the version again after a change. */
  refresh: () => Promise<void>;
  /** Puts a question as the server saved it into the version (pages' transition targets follow). */
  replaceField: (field: Question) => void;
  /** Tells the builder what a question holds as it is typed, saved or not (the preview shows it). */
  draft?: (id: string, values: Partial<Question>) => void;
  /** Undo and redo of this session's edits. */
  history?: BuilderHistory;
  categories: OptionsState;
  tags: OptionsState;
}

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

/** What `run` of useAction takes: a call and the message shown when it fails. */
type Run = (action: () => Promise<void>, failure: string) => Promise<boolean>;

/**
 * A change to the survey through `run`: the call, then the survey read again so every part of
 * the editor shows what the server kept; `failure` when either fails.
 */
export const changeSurvey =
  (ctx: EditorContext, run: Run, failure: string) =>
  (call: () => Promise<unknown>): Promise<boolean> =>
    run(async () => {
      await call();
      await ctx.refresh();
    }, failure);

import {
  ENGAGEMENT_OPTION_TYPE,
  SURVEY_OPTION_TYPE,
  SURVEY_PAGE_TYPE,
  SURVEY_QUESTION_TYPE,
  SURVEY_TYPE,
  type EngagementOption,
  type EngagementOptionSetting,
  type QuestionTranslations,
  type Survey,
  type SurveyInput,
  type SurveyOption,
  type SurveyPage,
  type SurveyQuestion,
  type TransitionTo,
} from '../model/legacySurvey';
import type { FieldType } from '../model/survey';
import type { ApiClient } from './client';
import { listApi } from './resourceApi';

const at = (path: string, id: string) => `${path}/${encodeURIComponent(id)}`;

export interface QuestionValues {
  questionType: FieldType;
  title: string;
  helperText: string | null;
  questionCategoryId: number | null;
  tagIds: number[];
  translations: QuestionTranslations;
  displayOrder: number;
}

export interface OptionValues {
  label: string;
  value: string;
  isDisqualified: boolean;
  transitionTo: TransitionTo | null;
  transitionTarget: number | null;
  translations: Record<string, string>;
  displayOrder: number;
}

/** Legacy surveys (SPEC section 7): surveys, pages, questions, options and engagement options. */
export function legacySurveysApi(client: ApiClient) {
  return {
    ...listApi<Survey>(client, 'surveys'),
    /** With its pages, questions and options. */
    get: (id: string) => client.get<Survey>(at('surveys', id)),
    create: (values: SurveyInput) => client.create<Survey>('surveys', SURVEY_TYPE, { ...values }),
    update: (id: string, values: { title?: string; isActive?: boolean }) => client.update<Survey>(at('surveys', id), SURVEY_TYPE, id, values),
    remove: (id: string) => client.remove(at('surveys', id)),

    addPage: (surveyId: string) => client.create<SurveyPage>('pages', SURVEY_PAGE_TYPE, { surveyId: Number(surveyId) }),
    updatePage: (id: string, values: { title?: string; isActive?: boolean; displayOrder?: number }) =>
      client.update<SurveyPage>(at('pages', id), SURVEY_PAGE_TYPE, id, values),
    removePage: (id: string) => client.remove(at('pages', id)),

    addQuestion: (pageId: string, values: Partial<Omit<QuestionValues, 'displayOrder'>> = {}) =>
      client.create<SurveyQuestion>('questions', SURVEY_QUESTION_TYPE, { pageId: Number(pageId), ...values }),
    updateQuestion: (id: string, values: Partial<QuestionValues>) =>
      client.update<SurveyQuestion>(at('questions', id), SURVEY_QUESTION_TYPE, id, { ...values }),
    removeQuestion: (id: string) => client.remove(at('questions', id)),

    addOption: (questionId: string, values: Partial<Omit<OptionValues, 'displayOrder'>> = {}) =>
      client.create<SurveyOption>('options', SURVEY_OPTION_TYPE, { questionId: Number(questionId), ...values }),
    updateOption: (id: string, values: Partial<OptionValues>) => client.update<SurveyOption>(at('options', id), SURVEY_OPTION_TYPE, id, { ...values }),
    removeOption: (id: string) => client.remove(at('options', id)),

    engagementOptions: (params: { optionId?: string; engagementId?: string; limit?: number } = {}) =>
      client.list<EngagementOption>('engagements-options', { limit: 100, ...params }),
    // SPEC section 7 spells the create with a trailing slash.
    addEngagementOption: (values: { engagementId: number; optionId: number; isDisqualified?: boolean; weight?: number }) =>
      client.create<EngagementOption>('engagements-options/', ENGAGEMENT_OPTION_TYPE, { ...values }),
    updateEngagementOption: (id: string, values: { isDisqualified?: boolean; weight?: number }) =>
      client.update<EngagementOption>(at('engagements-options', id), ENGAGEMENT_OPTION_TYPE, id, values),
    /** Replaces the option's per-engagement settings. */
    replaceEngagementOptions: (optionId: string, settings: EngagementOptionSetting[]) =>
      client.create<EngagementOption[]>(at('update-engagements-options', optionId), ENGAGEMENT_OPTION_TYPE, {
        engagementOptions: settings.map((s) => ({ ...s })),
      }),
  };
}

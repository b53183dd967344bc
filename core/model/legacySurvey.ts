/**
 * Legacy surveys (SPEC sections 3, 4, 7: /surveys): a survey of an engagement made of pages,
 * questions and options, and each option's per-engagement disqualification and weight. The
 * authoring rules themselves live in core/survey/authoring.ts.
 */
import * as v from 'valibot';
import { isApiIsoCode } from '../i18n';
import { message } from '../validation/messages';
import { hasMaxLength } from '../validation/rules';
import { flag, idNumber, optionalText, requiredText } from './fields';
import { ISO_CODE_FORMAT } from './language';
import { FIELD_TYPES } from './survey';
import { FIELD_TYPE_INVALID } from './surveyDoc';
import { translations } from './translations';
import { count, idText, instant, nullableText, resourceAnswer, whole, type Answered } from './answers';

export const SURVEY_TYPE = 'surveys';
export const SURVEY_PAGE_TYPE = 'pages';
export const SURVEY_QUESTION_TYPE = 'questions';
export const SURVEY_OPTION_TYPE = 'options';
export const ENGAGEMENT_OPTION_TYPE = 'engagements-options';

export const SURVEY_SORTS = ['title', 'isActive', 'engagementName', 'sponsorName', 'created', 'modified'] as const;
export const SURVEY_DEFAULT_SORT = '-isActive,title';
export const ENGAGEMENT_OPTION_SORTS = ['engagementName', 'weight', 'isDisqualified'] as const;
export const ENGAGEMENT_OPTION_DEFAULT_SORT = 'engagementName';

/** Where an option leads: 'end' of the survey, a page of it, or (null) the next page. */
export const TRANSITION_TO = ['end', 'page'] as const;
export type TransitionTo = (typeof TRANSITION_TO)[number];

export const TRANSITION_TO_INVALID = "Choose 'end', 'page' or nothing (the next page).";
export const TRANSITION_TARGET_REQUIRED = 'Choose the page this option jumps to.';
export const TRANSITION_TARGET_INVALID = 'Choose a page of this survey other than the option’s own, and not one holding only date-of-birth questions.';

/** A row id: a positive integer that fits the database's integer (larger ones name nothing). */
const rowId = () => v.pipe(idNumber(), v.maxValue(2_147_483_647, message('integer')));
/** A position among siblings, 1 for the first. */
const position = () => v.pipe(idNumber(), v.maxValue(100_000, message('integer')));
/** Weights are whole numbers; the bounds keep them in a database integer. */
export const WEIGHT_MIN = -1_000_000;
export const WEIGHT_MAX = 1_000_000;
const weight = () =>
  v.pipe(
    v.number(message('integer')),
    v.integer(message('integer')),
    v.check((n) => n >= WEIGHT_MIN && n <= WEIGHT_MAX, `Must be a whole number from ${WEIGHT_MIN} to ${WEIGHT_MAX}.`),
  );

export const SurveyInput = v.strictObject({
  title: requiredText(255),
  engagementId: rowId(),
  isActive: v.optional(flag(), true),
});
export const SurveyPatch = v.partial(v.strictObject({ title: requiredText(255), isActive: flag() }));
export type SurveyInput = v.InferInput<typeof SurveyInput>;

export const PageInput = v.strictObject({
  surveyId: rowId(),
  /** Absent: 'New Page N' (SPEC section 4). */
  title: v.optional(requiredText(255)),
  isActive: v.optional(flag(), true),
});
export const PagePatch = v.partial(v.strictObject({ title: requiredText(255), isActive: flag(), displayOrder: position() }));

/** Per language (API iso code): the question's title and helper text. */
export const questionTranslations = () =>
  v.pipe(
    v.record(
      v.pipe(v.string(), v.check(isApiIsoCode, ISO_CODE_FORMAT)),
      v.strictObject({
        title: v.optional(
          v.nullable(
            v.pipe(
              v.string(),
              v.trim(),
              v.check((s) => hasMaxLength(s, 500), message('max', { length: 500 })),
            ),
          ),
        ),
        helperText: v.optional(
          v.nullable(
            v.pipe(
              v.string(),
              v.trim(),
              v.check((s) => hasMaxLength(s, 1000), message('max', { length: 1000 })),
            ),
          ),
        ),
      }),
    ),
    // Blank texts are dropped, and a language left with nothing is removed.
    v.transform((map) => {
      const out: QuestionTranslations = {};
      for (const [code, t] of Object.entries(map)) {
        const entry: { title?: string; helperText?: string } = {};
        if (t.title) entry.title = t.title;
        if (t.helperText) entry.helperText = t.helperText;
        if (entry.title || entry.helperText) out[code] = entry;
      }
      return out;
    }),
  );
export type QuestionTranslations = Record<string, { title?: string; helperText?: string }>;

const questionFields = {
  questionType: v.picklist(FIELD_TYPES, FIELD_TYPE_INVALID),
  title: requiredText(500),
  helperText: optionalText(1000),
  questionCategoryId: v.optional(v.nullable(rowId())),
  /** The question's tags (ids of /api/tags), replacing the old list. */
  tagIds: v.optional(v.pipe(v.array(rowId()), v.maxLength(100, message('max', { length: 100 })))),
  translations: v.optional(questionTranslations()),
};
export const QuestionInput = v.strictObject({
  pageId: rowId(),
  /** Absent: 'placeholder', titled 'Placeholder' (SPEC section 4). */
  questionType: v.optional(questionFields.questionType),
  title: v.optional(questionFields.title),
  helperText: questionFields.helperText,
  questionCategoryId: questionFields.questionCategoryId,
  tagIds: questionFields.tagIds,
  translations: questionFields.translations,
});
export const QuestionPatch = v.partial(v.strictObject({ ...questionFields, displayOrder: position() }));

const optionFields = {
  label: requiredText(500),
  value: requiredText(200),
  isDisqualified: flag(),
  transitionTo: v.nullable(v.picklist(TRANSITION_TO, TRANSITION_TO_INVALID)),
  transitionTarget: v.nullable(rowId()),
  translations: translations(500),
};
export const OptionInput = v.strictObject({
  questionId: rowId(),
  /** Absent: 'Option N' with value N. */
  label: v.optional(optionFields.label),
  value: v.optional(optionFields.value),
  isDisqualified: v.optional(optionFields.isDisqualified, false),
  transitionTo: v.optional(optionFields.transitionTo, null),
  transitionTarget: v.optional(optionFields.transitionTarget, null),
  translations: v.optional(optionFields.translations, {}),
});
export const OptionPatch = v.partial(v.strictObject({ ...optionFields, displayOrder: position() }));

export const EngagementOptionInput = v.strictObject({
  engagementId: rowId(),
  optionId: rowId(),
  isDisqualified: v.optional(flag(), false),
  weight: v.optional(weight(), 0),
});
export const EngagementOptionPatch = v.partial(v.strictObject({ isDisqualified: flag(), weight: weight() }));
/** The body of POST /api/update-engagements-options/{optionId}: the option's whole set. */
export const EngagementOptionsReplace = v.strictObject({
  engagementOptions: v.pipe(
    v.array(v.strictObject({ engagementId: rowId(), isDisqualified: v.optional(flag(), false), weight: v.optional(weight(), 0) })),
    v.maxLength(1000, message('max', { length: 1000 })),
  ),
});
export type EngagementOptionSetting = v.InferInput<typeof EngagementOptionsReplace>['engagementOptions'][number];

// The resources as the API answers them: an option within a question within a page within a
// survey, each also answered on its own.

const textsByLanguage = () => v.pipe(v.record(v.string(), v.string()), v.description('Texts by language (API iso code).'));

const optionEntries = {
  questionId: idText(),
  label: v.string(),
  value: v.string(),
  isDisqualified: v.boolean(),
  transitionTo: v.nullable(v.picklist(TRANSITION_TO)),
  transitionTarget: v.pipe(v.nullable(idText()), v.description("The page id when transitionTo is 'page'.")),
  translations: textsByLanguage(),
  displayOrder: whole(),
};
export const SURVEY_OPTION = resourceAnswer(SURVEY_OPTION_TYPE, v.object(optionEntries));
export type SurveyOption = Answered<typeof SURVEY_OPTION>;

const questionEntries = {
  pageId: idText(),
  questionType: v.picklist(FIELD_TYPES),
  title: v.string(),
  helperText: nullableText(),
  questionCategoryId: v.nullable(idText()),
  tags: v.array(v.object({ id: idText(), name: v.string() })),
  translations: v.pipe(
    v.record(v.string(), v.object({ title: v.optional(v.string()), helperText: v.optional(v.string()) })),
    v.description("The title's and helper text's translations by language (API iso code)."),
  ),
  displayOrder: whole(),
  options: v.array(v.object({ id: v.string(), ...optionEntries })),
};
export const SURVEY_QUESTION = resourceAnswer(SURVEY_QUESTION_TYPE, v.object(questionEntries));
export type SurveyQuestion = Answered<typeof SURVEY_QUESTION>;

const pageEntries = {
  surveyId: idText(),
  title: v.string(),
  displayOrder: whole(),
  isActive: v.boolean(),
  questions: v.array(v.object({ id: v.string(), ...questionEntries })),
};
const SurveyPageShape = v.object({ id: v.string(), ...pageEntries });
export type SurveyPage = v.InferOutput<typeof SurveyPageShape>;
/** A page answered on its own, with its survey's page counter. */
export const SURVEY_PAGE = resourceAnswer(SURVEY_PAGE_TYPE, v.object({ ...pageEntries, pageCounter: count() }));

export const SURVEY = resourceAnswer(
  SURVEY_TYPE,
  v.object({
    title: v.string(),
    globalId: v.string(),
    isActive: v.boolean(),
    engagementId: v.nullable(idText()),
    engagementName: nullableText(),
    sponsorId: v.nullable(idText()),
    sponsorName: nullableText(),
    screenerId: v.nullable(idText()),
    pageCounter: count(),
    created: instant(),
    modified: instant(),
    pages: v.pipe(
      v.optional(v.array(SurveyPageShape)),
      v.description('A single read (or a list with include): the pages (not deleted) with their questions and options.'),
    ),
  }),
);
export type Survey = Answered<typeof SURVEY>;

/** An option's disqualification and weight for one engagement. */
export const ENGAGEMENT_OPTION = resourceAnswer(
  ENGAGEMENT_OPTION_TYPE,
  v.object({ engagementId: idText(), engagementName: v.string(), optionId: idText(), isDisqualified: v.boolean(), weight: whole() }),
);
export type EngagementOption = Answered<typeof ENGAGEMENT_OPTION>;

/** The page summaries core/survey/authoring.ts#transitionTargets takes, from a survey's pages. */
export const pageSummaries = (pages: readonly SurveyPage[]) =>
  pages.map((p) => ({ identity: p.id, title: p.title, displayOrder: p.displayOrder, fieldTypes: p.questions.map((q) => q.questionType) }));

/**
 * Versioned surveys (oForms) as the API shows and takes them (SPEC sections 3, 4, 7:
 * /api/o-forms/...): a version of a survey identity, its pages (root containers) and child
 * containers, and its questions (fields) whose `configuration` is checked with
 * `fieldConfiguration(type)` of ./survey.
 */
import * as v from 'valibot';
import { message } from '../validation/messages';
import { flag, idNumber, requiredText } from './fields';
import { FIELD_TYPES, FieldConfiguration, OFORM_TYPE, PageTranslations } from './survey';
import { answered, count, idText, instant, resourceAnswer } from './answers';
import { OFORM_FIELD_TYPE } from './kinds';
import { chooseFromList } from '../validation/chooseFromList';

export const OFORM_CONTAINER_TYPE = 'o-form-containers';
export { OFORM_FIELD_TYPE } from './kinds';
export const OFORM_VERSION_TYPE = 'o-form-versions';
export const OFORM_COPY_TYPE = 'o-form-copy';
export const OFORM_FIELD_TYPE_TYPE = 'o-form-field-types';
export const OFORM_FIELD_CATEGORY_TYPE = 'o-form-field-categories';

/** A question type, as the question editor's picker lists it (id: core's FieldType). */
export const OFORM_FIELD_TYPE_ROW = resourceAnswer(
  OFORM_FIELD_TYPE_TYPE,
  v.object({ name: v.string(), isChoice: v.pipe(v.boolean(), v.description('Its answers are chosen from options.')) }),
);
/** A question category (the question_categories lookup), as the question editor's picker lists it. */
export const OFORM_FIELD_CATEGORY_ROW = resourceAnswer(OFORM_FIELD_CATEGORY_TYPE, v.object({ name: v.string() }));

export const CONTAINER_TYPES = ['root_container', 'child_container'] as const;
export type ContainerType = (typeof CONTAINER_TYPES)[number];

export const OFORM_SORTS = ['title', 'version', 'isActive', 'isApproved', 'engagementName', 'sponsorName', 'created', 'modified'] as const;
export const OFORM_DEFAULT_SORT = '-modified';
export const OFORM_INCLUDES = [
  'oFormContainers',
  'oFormContainers.oFormFields',
  'oFormContainers.oFormFields.tags',
  'engagement',
  'engagement.sponsor',
  'languages',
] as const;

export const APPROVED_IMMUTABLE = 'This version is approved and cannot change. Make a new version to edit it.';
export const ALREADY_APPROVED = 'This version has already been approved. Make a new version to approve changes.';
export const MARK_APPROVED_ONLY = 'Send mark_approved: true to approve this version.';
export const UNKNOWN_IDENTITY = chooseFromList('a survey');
export const VERSION_RACE = 'Another version of this survey was just made. Reload and try again.';
export const TRANSITION_PAGE_INVALID = 'Choose a page of this version other than the question’s own, and not one holding only date-of-birth questions.';
export const TRANSITION_SURVEY_INVALID = chooseFromList('another survey');
export const PARENT_CONTAINER_INVALID = 'Choose a page of the same version.';
export const FIELD_TYPE_INVALID = `Choose one of: ${FIELD_TYPES.join(', ')}.`;

const rowId = () => v.pipe(idNumber(), v.maxValue(2_147_483_647, message('integer')));
const position = () => v.pipe(idNumber(), v.maxValue(100_000, message('integer')));

export const NewSurveyInput = v.strictObject({
  title: requiredText(255),
  engagementId: rowId(),
  isActive: v.optional(flag(), true),
});
export const SurveyVersionPatch = v.partial(v.strictObject({ title: requiredText(255), isActive: flag() }));

/** POST /api/o-forms/o-form-copy: the next version of an identity, copied from its latest. */
export const VersionCopyInput = v.strictObject({ copy_identity: requiredText(100) });
/** PATCH /api/o-forms/o-form-versions/{id}. */
export const VersionApprovalPatch = v.strictObject({ mark_approved: v.literal(true, MARK_APPROVED_ONLY) });

export const ContainerInput = v.strictObject({
  oFormId: rowId(),
  /** A child container of this page; absent or null for a page ('New Page N' when untitled). */
  parentId: v.optional(v.nullable(rowId()), null),
  title: v.optional(requiredText(255)),
  isActive: v.optional(flag(), true),
  /** The title per language, as a question's configuration.translations holds its own. */
  translations: v.optional(PageTranslations, {}),
});
export const ContainerPatch = v.partial(
  v.strictObject({ title: requiredText(255), isActive: flag(), displayOrder: position(), translations: PageTranslations }),
);

const fieldFields = {
  oFormFieldTypeId: v.picklist(FIELD_TYPES, FIELD_TYPE_INVALID),
  title: requiredText(500),
  categoryId: v.nullable(rowId()),
  isActive: flag(),
  /** Checked against the question's type with fieldConfiguration(type). */
  configuration: v.record(v.string(), v.unknown()),
  tagIds: v.pipe(v.array(rowId()), v.maxLength(100, message('max', { length: 100 }))),
};
export const FieldInput = v.strictObject({
  containerId: rowId(),
  /** Absent: 'placeholder', titled 'Placeholder' (SPEC section 4). */
  oFormFieldTypeId: v.optional(fieldFields.oFormFieldTypeId),
  title: v.optional(fieldFields.title),
  categoryId: v.optional(fieldFields.categoryId),
  isActive: v.optional(fieldFields.isActive, true),
  configuration: v.optional(fieldFields.configuration),
  tagIds: v.optional(fieldFields.tagIds),
});
export const FieldPatch = v.partial(v.strictObject({ ...fieldFields, displayOrder: position() }));

// The resources as the API answers them (the admin reads its answers through these).

/** A question (o-form-fields): its page by id and identity, its type, its configuration and tags. */
export const OFORM_FIELD = resourceAnswer(
  OFORM_FIELD_TYPE,
  v.object({
    identity: v.string(),
    containerId: idText(),
    oFormContainerIdentity: v.string(),
    title: v.string(),
    oFormFieldTypeId: v.picklist(FIELD_TYPES),
    oFormFieldCategoryId: v.nullable(idText()),
    isActive: v.boolean(),
    displayOrder: count(),
    configuration: FieldConfiguration,
    tags: v.array(v.object({ id: idText(), name: v.string() })),
  }),
);
/** What the admin parses a question with: its id beside the described attributes. */
export const Question = answered(OFORM_FIELD);
export type Question = v.InferOutput<typeof Question>;

/** A page or child container (o-form-containers) of a version. */
export const OFORM_CONTAINER = resourceAnswer(
  OFORM_CONTAINER_TYPE,
  v.object({
    identity: v.string(),
    oFormVersionId: idText(),
    oFormIdentity: v.string(),
    title: v.string(),
    displayOrder: count(),
    isActive: v.boolean(),
    oFormContainerTypeId: v.picklist(CONTAINER_TYPES),
    parentId: v.nullable(idText()),
    translations: PageTranslations,
  }),
);
export const PageOrGroup = answered(OFORM_CONTAINER);
export type PageOrGroup = v.InferOutput<typeof PageOrGroup>;

/** An option's jump, listed on the survey (SPEC section 3: transitions). */
export const SurveyTransition = v.object({
  containerIdentity: v.string(),
  fieldIdentity: v.string(),
  optionValue: v.string(),
  to: v.picklist(['page', 'end', 'survey']),
  identity: v.nullable(v.string()),
});
export type SurveyTransition = v.InferOutput<typeof SurveyTransition>;

/** A version of a survey identity (o-forms), with its engagement and sponsor named. */
export const OFORM = resourceAnswer(
  OFORM_TYPE,
  v.object({
    identity: v.string(),
    version: v.pipe(v.number(), v.integer(), v.minValue(1)),
    title: v.string(),
    isActive: v.boolean(),
    isApproved: v.boolean(),
    approvedAt: v.nullable(instant()),
    engagementId: idText(),
    engagementName: v.string(),
    sponsorId: idText(),
    sponsorName: v.string(),
    containerCount: count(),
    transitions: v.array(SurveyTransition),
    created: instant(),
    modified: instant(),
  }),
);
export const SurveyVersion = answered(OFORM);
export type SurveyVersion = v.InferOutput<typeof SurveyVersion>;

/** A version's approval state (o-form-versions, id: the version's). */
export const OFORM_VERSION = resourceAnswer(
  OFORM_VERSION_TYPE,
  v.object({ identity: v.string(), version: OFORM.attributes.entries.version, isApproved: v.boolean(), approvedAt: v.nullable(instant()) }),
);

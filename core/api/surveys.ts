/**
 * Versioned surveys (oForms, SPEC section 7: /api/o-forms/...): versions, their pages
 * (containers) and questions (fields), copying, approving, messages and the lookups the builder
 * needs. Exports (PDF, metrics), survey languages and missing translations live in ./surveyExports.
 */
import * as v from 'valibot';
import { Language } from '../model/language';
import { OFORM_TYPE, type FieldConfiguration, type FieldType, type PageTranslations } from '../model/survey';
import type { Answered } from '../model/answers';
import {
  OFORM_CONTAINER_TYPE,
  OFORM_COPY_TYPE,
  OFORM_FIELD_TYPE,
  OFORM_VERSION_TYPE,
  SurveyVersion,
  PageOrGroup,
  Question,
  type OFORM_FIELD_CATEGORY_ROW,
  type OFORM_FIELD_TYPE_ROW,
} from '../model/surveyDoc';
import { OFORM_MESSAGE_TYPE, type DefaultSurveyMessage, type SurveyMessage, type SurveyMessageType } from '../model/surveyMessage';
import type { ScreenerSurvey } from '../model/screenerSurvey';
import type { SurveyNaming } from '../model/surveyNaming';
import { parseAnswer, type ApiClient } from './client';
import { listApi } from './resourceApi';

/** Everything the builder reads about a version. */
export const OFORM_DETAIL_INCLUDE = 'oFormContainers.oFormFields.tags,engagement.sponsor,languages';

/** A survey language as the version includes it. */
const SurveyLanguageRef = v.pick(Language, ['id', 'name', 'description', 'isoCode']);
export type SurveyLanguageRef = v.InferOutput<typeof SurveyLanguageRef>;

export interface PageWithQuestions extends PageOrGroup {
  fields: Question[];
}

/** A version with its pages (root containers, in order) and their questions (in order). */
export interface SurveyDetail {
  form: SurveyVersion;
  languages: SurveyLanguageRef[];
  pages: PageWithQuestions[];
}

export interface SurveyVersionState {
  id: string;
  identity: string;
  version: number;
  isApproved: boolean;
  approvedAt: string | null;
}

export interface FieldValues {
  oFormFieldTypeId: FieldType;
  title: string;
  categoryId: number | null;
  isActive: boolean;
  configuration: FieldConfiguration;
  tagIds: number[];
  displayOrder: number;
}

export type QuestionTypeRow = Answered<typeof OFORM_FIELD_TYPE_ROW> & { id: FieldType };

/** A version as GET with OFORM_DETAIL_INCLUDE answers it, decoded: its pages, their questions and its languages all included. */
const SurveyDetailAnswer = v.object({
  ...SurveyVersion.entries,
  oFormContainers: v.array(v.object({ ...PageOrGroup.entries, oFormFields: v.array(Question) })),
  languages: v.array(SurveyLanguageRef),
});

/** The decoded document as pages in order with their fields in order. */
function toDetail(decoded: unknown): SurveyDetail {
  const { oFormContainers, languages, ...form } = parseAnswer(SurveyDetailAnswer, decoded, 'the survey');
  const pages = oFormContainers
    .map(({ oFormFields, ...container }) => ({ ...container, fields: oFormFields.sort((a, b) => a.displayOrder - b.displayOrder) }))
    .sort((a, b) => a.displayOrder - b.displayOrder);
  return { form, languages, pages };
}

export function surveysApi(client: ApiClient) {
  const form = (id: string) => `o-forms/o-forms/${encodeURIComponent(id)}`;
  const container = (id: string) => `o-forms/o-form-containers/${encodeURIComponent(id)}`;
  const field = (id: string) => `o-forms/o-form-fields/${encodeURIComponent(id)}`;
  return {
    ...listApi<SurveyVersion>(client, 'o-forms/o-forms'),
    /** Every version of a survey identity, newest first. */
    versions: (identity: string) => client.list<SurveyVersion>('o-forms/o-forms', { identity, sort: '-version', limit: 100 }).then((r) => r.items),
    /**
     * Surveys to pick by title: one per identity, named by the version that stands for it (the
     * approved one, else the latest), matching `searchQuery`, first 20 by title.
     */
    pickable: async (params: { searchQuery?: string; sponsorId?: string } = {}): Promise<SurveyNaming[]> =>
      (await client.list<SurveyVersion>('o-forms/o-forms', { currentOnly: true, sort: 'title', limit: 20, ...params })).items.map((f) => ({
        oFormIdentity: f.identity,
        title: f.title,
        version: f.version,
        isApproved: f.isApproved,
      })),
    get: (id: string) => client.get<SurveyVersion>(form(id)),
    detail: async (id: string) => toDetail(await client.get<unknown>(form(id), { include: OFORM_DETAIL_INCLUDE })),
    create: (values: { title: string; engagementId: number; isActive?: boolean }) => client.create<SurveyVersion>('o-forms/o-forms', OFORM_TYPE, { ...values }),
    update: (id: string, values: { title?: string; isActive?: boolean }) => client.update<SurveyVersion>(form(id), OFORM_TYPE, id, { ...values }),
    remove: (id: string) => client.remove(form(id)),
    /** The next version of the identity, a deep copy of its latest. */
    copy: (identity: string) => client.create<SurveyVersion>('o-forms/o-form-copy', OFORM_COPY_TYPE, { copy_identity: identity }),
    approve: (id: string) =>
      client.update<SurveyVersionState>(`o-forms/o-form-versions/${encodeURIComponent(id)}`, OFORM_VERSION_TYPE, id, { mark_approved: true }),

    addPage: (oFormId: string, title?: string) =>
      client.create<PageOrGroup>('o-forms/o-form-containers', OFORM_CONTAINER_TYPE, { oFormId: Number(oFormId), ...(title ? { title } : {}) }),
    updatePage: (id: string, values: { title?: string; isActive?: boolean; displayOrder?: number; translations?: PageTranslations }) =>
      client.update<PageOrGroup>(container(id), OFORM_CONTAINER_TYPE, id, { ...values }),
    removePage: (id: string) => client.remove(container(id)),

    addField: (containerId: string, values: Partial<Omit<FieldValues, 'displayOrder'>> = {}) =>
      client.create<Question>('o-forms/o-form-fields', OFORM_FIELD_TYPE, { containerId: Number(containerId), ...values }),
    updateField: (id: string, values: Partial<FieldValues>) => client.update<Question>(field(id), OFORM_FIELD_TYPE, id, { ...values }),
    removeField: (id: string) => client.remove(field(id)),

    defaultMessages: () => client.list<DefaultSurveyMessage>('o-forms/o-form-default-messages').then((r) => r.items),
    messages: (identity: string, versionId: string) =>
      client.list<SurveyMessage>('o-forms/o-form-messages', { o_form_identity: identity, o_form_version_id: versionId, limit: 100 }).then((r) => r.items),
    addMessage: (values: { oFormVersionId: number; messageType: SurveyMessageType; language: string; message: string }) =>
      client.create<SurveyMessage>('o-forms/o-form-messages', OFORM_MESSAGE_TYPE, { ...values }),
    updateMessage: (id: string, message: string) =>
      client.update<SurveyMessage>(`o-forms/o-form-messages/${encodeURIComponent(id)}`, OFORM_MESSAGE_TYPE, id, { message }),

    /** The screeners that run this survey identity (screener-surveys links). */
    screenerLinks: (identity: string) => client.list<ScreenerSurvey>('screener-surveys', { oFormIdentity: identity, limit: 100 }).then((r) => r.items),

    fieldTypes: () => client.list<QuestionTypeRow>('o-forms/o-form-field-types').then((r) => r.items),
    fieldCategories: () => client.list<Answered<typeof OFORM_FIELD_CATEGORY_ROW>>('o-forms/o-form-field-categories').then((r) => r.items),
  };
}

/**
 * How the staff's survey resources read in the API: a version (o-forms) with its pages,
 * questions, tags, engagement and languages; a page (o-form-containers) and a question
 * (o-form-fields). Shared by the route files of /api/o-forms, /o-form-copy,
 * /o-form-containers and /o-form-fields, which all answer with these documents.
 */
import type { Context } from 'hono';
import { asc, eq } from 'drizzle-orm';
import type { Resource } from '@core/jsonapi';
import { OFORM_TYPE } from '@core/model/survey';
import {
  OFORM_CONTAINER_TYPE,
  OFORM_FIELD_TYPE,
  OFORM_INCLUDES,
  OFORM_VERSION_TYPE,
  type ContainerType,
  type SurveyVersion,
  type PageOrGroup,
  type Question,
  type SurveyTransition,
} from '@core/model/surveyDoc';
import type { AuthUser } from '../context';
import type { Conn, Db } from '../db/open';
import { languages, oFormLanguages } from '../db/schema';
import { NotFound } from '../errors';
import { sendResource, toResource } from '../http/serialize';
import { loadStructure, type ContainerRow, type Structure, type StructureField } from './structure';
import { findForm, type FormRow } from './versions';

/** A question as the API shows it: string ids, its container's identity, its tags. */
export function toField(field: StructureField, structure: Structure): Question {
  return {
    id: String(field.id),
    identity: field.identity,
    containerId: String(field.containerId),
    oFormContainerIdentity: structure.containers.find((c) => c.id === field.containerId)?.identity ?? '',
    title: field.title,
    oFormFieldTypeId: field.type,
    oFormFieldCategoryId: field.categoryId === null ? null : String(field.categoryId),
    isActive: field.isActive,
    displayOrder: field.displayOrder,
    configuration: field.configuration,
    tags: field.tags.map((t) => ({ id: String(t.id), name: t.name })),
  };
}

function toContainer(row: ContainerRow, form: { identity: string }): PageOrGroup {
  return {
    id: String(row.id),
    identity: row.identity,
    oFormVersionId: String(row.oFormId),
    oFormIdentity: form.identity,
    title: row.title,
    displayOrder: row.displayOrder,
    isActive: row.isActive,
    oFormContainerTypeId: row.containerType as ContainerType,
    parentId: row.parentId === null ? null : String(row.parentId),
    translations: row.translations,
  };
}

function transitionsOf(structure: Structure): SurveyTransition[] {
  return structure.fields.flatMap((f) =>
    f.configuration.options
      .filter((o) => o.transition)
      .map((o) => ({
        containerIdentity: structure.containers.find((c) => c.id === f.containerId)?.identity ?? '',
        fieldIdentity: f.identity,
        optionValue: o.value,
        to: o.transition!.to,
        identity: o.transition!.to === 'end' ? null : (o.transition as { identity: string }).identity,
      })),
  );
}

function toForm(row: FormRow, structure?: Structure): SurveyVersion {
  return {
    id: String(row.id),
    identity: row.identity,
    version: row.version,
    title: row.title,
    isActive: row.isActive,
    isApproved: row.isApproved,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    engagementId: String(row.engagementId),
    engagementName: row.engagementName,
    sponsorId: String(row.sponsorId),
    sponsorName: row.sponsorName,
    containerCount: row.containerCount,
    transitions: structure ? transitionsOf(structure) : [],
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}

export function containerResource(row: ContainerRow, form: { identity: string }, structure: Structure, withFields: boolean): Resource {
  const { id, ...attributes } = toContainer(row, form);
  const relationships: Resource['relationships'] = {
    parentOFormContainer: { data: row.parentId === null ? null : { type: OFORM_CONTAINER_TYPE, id: String(row.parentId) } },
    childOFormContainers: {
      data: structure.containers.filter((c) => c.parentId === row.id).map((c) => ({ type: OFORM_CONTAINER_TYPE, id: String(c.id) })),
    },
  };
  if (withFields) {
    relationships.oFormFields = {
      data: structure.fields.filter((f) => f.containerId === row.id).map((f) => ({ type: OFORM_FIELD_TYPE, id: String(f.id) })),
    };
  }
  return toResource(OFORM_CONTAINER_TYPE, id, attributes, { relationships });
}

export function fieldResource(field: Question, withTags = false): Resource {
  const { id, ...attributes } = field;
  return toResource(OFORM_FIELD_TYPE, id, attributes, {
    relationships: withTags ? { tags: { data: field.tags.map((t) => ({ type: 'tags', id: t.id })) } } : undefined,
  });
}

/** The survey with its relationships, and the resources `include` asks for. */
export async function formDocument(db: Conn, row: FormRow, include: ReadonlySet<string>, fields: Set<string> | null = null) {
  const structure = await loadStructure(db, row.id);
  const formLanguages = await db
    .select({ id: languages.id, name: languages.name, description: languages.description, isoCode: languages.isoCode })
    .from(oFormLanguages)
    .innerJoin(languages, eq(languages.id, oFormLanguages.languageId))
    .where(eq(oFormLanguages.oFormId, row.id))
    .orderBy(asc(languages.name));
  const { id, ...attributes } = toForm(row, structure);
  const data = toResource(OFORM_TYPE, id, attributes, {
    fields,
    relationships: {
      oFormContainers: {
        data: structure.containers.filter((c) => c.parentId === null).map((c) => ({ type: OFORM_CONTAINER_TYPE, id: String(c.id) })),
      },
      engagement: { data: { type: 'engagements', id: String(row.engagementId) } },
      languages: { data: formLanguages.map((l) => ({ type: 'languages', id: String(l.id) })) },
      oFormVersion: { data: { type: OFORM_VERSION_TYPE, id } },
    },
  });
  const included: Resource[] = [];
  const withFields = include.has('oFormContainers.oFormFields') || include.has('oFormContainers.oFormFields.tags');
  const withTags = include.has('oFormContainers.oFormFields.tags');
  if (include.has('oFormContainers') || withFields) {
    included.push(...structure.containers.map((c) => containerResource(c, row, structure, withFields)));
  }
  if (withFields) included.push(...structure.fields.map((f) => fieldResource(toField(f, structure), withTags)));
  if (withTags) {
    const seen = new Map<number, Resource>();
    for (const t of structure.fields.flatMap((f) => f.tags)) seen.set(t.id, toResource('tags', t.id, { name: t.name }));
    included.push(...seen.values());
  }
  if (include.has('engagement') || include.has('engagement.sponsor')) {
    included.push(
      toResource(
        'engagements',
        row.engagementId,
        { name: row.engagementName, sponsorId: String(row.sponsorId), sponsorName: row.sponsorName },
        { relationships: { sponsor: { data: { type: 'sponsors', id: String(row.sponsorId) } } } },
      ),
    );
  }
  if (include.has('engagement.sponsor')) included.push(toResource('sponsors', row.sponsorId, { name: row.sponsorName }));
  if (include.has('languages')) {
    included.push(...formLanguages.map((l) => toResource('languages', l.id, { name: l.name, description: l.description, isoCode: l.isoCode })));
  }
  return { data, included };
}

const ALL_INCLUDES: ReadonlySet<string> = new Set(OFORM_INCLUDES);

/** Answers version `id` as the user may see it, with everything it can include. */
export async function sendForm(c: Context, db: Db, id: number, user: AuthUser, status: 200 | 201 = 200) {
  const row = await findForm(db, id, user);
  if (!row) throw new NotFound('survey');
  const { data, included } = await formDocument(db, row, ALL_INCLUDES);
  return sendResource(c, data, status, included);
}

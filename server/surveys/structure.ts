/**
 * A survey version's structure, read by one loader for everyone: its containers (pages and
 * their child containers) and questions in display order, each question with its tags. Staff
 * routes serialize it, the authoring checks, exports and translations read it, and the
 * participant's run (server/participant/runSurvey.ts) derives from it the pages and active questions
 * a participant sees.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { FIELD_TYPES, type FieldConfiguration, type FieldType } from '@core/model/survey';
import type { Conn } from '../db/open';
import { oFormContainers, oFormFieldTags, oFormFields, tags } from '../db/schema';

export type ContainerRow = typeof oFormContainers.$inferSelect;

export interface StructureField {
  id: number;
  identity: string;
  containerId: number;
  title: string;
  type: FieldType;
  categoryId: number | null;
  isActive: boolean;
  /** Within its container. */
  displayOrder: number;
  configuration: FieldConfiguration;
  /** By name. */
  tags: { id: number; name: string }[];
}

export interface Structure {
  /** Every container, pages and child containers, in display order. */
  containers: ContainerRow[];
  /** Every question, active or not, in display order within its container. */
  fields: StructureField[];
}

/** A type the code no longer knows reads as a placeholder (shown to nobody, checked by nothing). */
const knownType = (type: string): FieldType => FIELD_TYPES.find((t) => t === type) ?? 'placeholder';

/**
 * A stored configuration with its lists present. Configurations are checked by
 * core/model/survey.ts fieldConfiguration(type) on every write, so what is stored has that shape.
 */
const storedConfiguration = (stored: Record<string, unknown>): FieldConfiguration =>
  ({ required: false, helperText: null, translations: {}, options: [], ...stored }) as FieldConfiguration;

/** A version's containers and questions (with tags), each in display order. */
export async function loadStructure(db: Conn, formId: number): Promise<Structure> {
  const containers = await db
    .select()
    .from(oFormContainers)
    .where(eq(oFormContainers.oFormId, formId))
    .orderBy(asc(oFormContainers.displayOrder), asc(oFormContainers.id));
  const ids = containers.map((c) => c.id);
  const rows = ids.length
    ? await db.select().from(oFormFields).where(inArray(oFormFields.containerId, ids)).orderBy(asc(oFormFields.displayOrder), asc(oFormFields.id))
    : [];
  const tagRows = rows.length
    ? await db
        .select({ fieldId: oFormFieldTags.fieldId, id: tags.id, name: tags.name })
        .from(oFormFieldTags)
        .innerJoin(tags, eq(tags.id, oFormFieldTags.tagId))
        .where(
          and(
            inArray(
              oFormFieldTags.fieldId,
              rows.map((f) => f.id),
            ),
          ),
        )
        .orderBy(asc(tags.name))
    : [];
  const fields = rows.map((f) => ({
    id: f.id,
    identity: f.identity,
    containerId: f.containerId,
    title: f.title,
    type: knownType(f.type),
    categoryId: f.categoryId,
    isActive: f.isActive,
    displayOrder: f.displayOrder,
    configuration: storedConfiguration(f.configuration),
    tags: tagRows.filter((t) => t.fieldId === f.id).map((t) => ({ id: t.id, name: t.name })),
  }));
  return { containers, fields };
}

/** The page a container belongs to: itself for a page, else its parent. */
export function pageOf(containers: readonly ContainerRow[], containerId: number): ContainerRow | undefined {
  const container = containers.find((c) => c.id === containerId);
  if (!container) return undefined;
  return container.parentId === null ? container : containers.find((c) => c.id === container.parentId);
}

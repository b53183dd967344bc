/**
 * A survey version's questions as staff write them: each configuration checked for its type
 * (core/model/survey.ts) with the authoring defaults, every option's transition leading where it
 * may, the category and tags known; made at the end of their container, changed and moved,
 * deleted unless that leaves a page options jump to with date-of-birth questions only. Every
 * write takes the version's lock and refuses an approved version (./versions.ts).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, ne } from 'drizzle-orm';
import * as v from 'valibot';
import { toFieldIssues, type FieldIssue } from '@core/model/fields';
import { fieldConfiguration, type FieldConfiguration, type FieldType } from '@core/model/survey';
import { TRANSITION_PAGE_INVALID, TRANSITION_SURVEY_INVALID, type FieldInput, type FieldPatch } from '@core/model/surveyDoc';
import { DOB_PAGE_IS_TARGET, PLACEHOLDER_TITLE, isDobOnlyPage, optionsJumpingTo, transitionTargets, withAuthoringDefaults } from '@core/survey/authoring';
import type { AuthUser } from '../context';
import type { Conn, Db, Tx } from '../db/open';
import { engagements, oFormFields, oForms } from '../db/schema';
import { engagementScope } from '../engagements';
import { Conflict, Invalid } from '../errors';
import { closeGaps, moveTo } from './ordering';
import { findContainer, type ContainerContext } from './pages';
import { loadStructure, pageOf, type Structure } from './structure';
import { assertCategory, assertTags, writeTags } from './tagging';
import { lockEditable } from './versions';
import { insertedRow } from '../db/rows';

/** A question with its container and version, found in the user's scope. */
export interface FieldContext extends ContainerContext {
  field: typeof oFormFields.$inferSelect;
}

export async function findField(db: Conn, id: number | null, user: AuthUser): Promise<FieldContext | undefined> {
  if (id === null) return undefined;
  const [field] = await db.select().from(oFormFields).where(eq(oFormFields.id, id));
  const context = field && (await findContainer(db, field.containerId, user));
  return field && context ? { ...context, field } : undefined;
}

const fieldSiblings = (tx: Tx, containerId: number) =>
  tx
    .select({ id: oFormFields.id, displayOrder: oFormFields.displayOrder })
    .from(oFormFields)
    .where(eq(oFormFields.containerId, containerId))
    .orderBy(asc(oFormFields.displayOrder), asc(oFormFields.id));

/** The configuration as it will be stored: valid for `type`, with the authoring defaults. */
function parseConfiguration(type: FieldType, raw: unknown): FieldConfiguration {
  const parsed = v.safeParse(fieldConfiguration(type), raw ?? {});
  if (!parsed.success) throw new Invalid(toFieldIssues(parsed.issues, '/data/attributes/configuration'));
  return withAuthoringDefaults(type, parsed.output);
}

/** Pages as core/survey/authoring.ts sees them, with the written field as it will be. */
function pageSummaries(structure: Structure, written?: { id: number | null; containerId: number; type: FieldType }) {
  const fields = structure.fields.filter((f) => f.id !== written?.id).map((f) => ({ containerId: f.containerId, type: f.type }));
  if (written) fields.push({ containerId: written.containerId, type: written.type });
  return structure.containers
    .filter((c) => c.parentId === null)
    .map((page) => ({
      identity: page.identity,
      title: page.title,
      displayOrder: page.displayOrder,
      fieldTypes: fields.filter((f) => pageOf(structure.containers, f.containerId)?.id === page.id).map((f) => f.type),
    }));
}

/**
 * Every option's transition must lead somewhere it may: a page of this version that
 * `transitionTargets` offers (not the question's own page, not an all-dob page), the end, or
 * another survey identity. And no page options jump to may become all date-of-birth.
 */
async function assertTransitions(
  tx: Tx,
  user: AuthUser,
  context: ContainerContext,
  written: { id: number | null; type: FieldType; configuration: FieldConfiguration; typeChanged: boolean },
) {
  const structure = await loadStructure(tx, context.form.id);
  const summaries = pageSummaries(structure, { id: written.id, containerId: context.container.id, type: written.type });
  const ownPage = pageOf(structure.containers, context.container.id);
  const offered = new Set(transitionTargets(summaries, ownPage?.identity).map((p) => p.identity));
  const issues: FieldIssue[] = [];
  for (const [i, option] of written.configuration.options.entries()) {
    const t = option.transition;
    const pointer = `/data/attributes/configuration/options/${i}/transition/identity`;
    if (t?.to === 'page' && !offered.has(t.identity)) issues.push({ pointer, detail: TRANSITION_PAGE_INVALID });
    if (t?.to === 'survey') {
      // Another survey the user may reach (another sponsor's identities are not confirmed).
      const [other] = await tx
        .select({ id: oForms.id })
        .from(oForms)
        .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
        .where(and(eq(oForms.identity, t.identity), ne(oForms.identity, context.form.identity), engagementScope(user)))
        .limit(1);
      if (!other) issues.push({ pointer, detail: TRANSITION_SURVEY_INVALID });
    }
  }
  if (issues.length) throw new Invalid(issues);
  if (written.typeChanged && written.type === 'dob' && ownPage) {
    const page = summaries.find((p) => p.identity === ownPage.identity);
    const others = structure.fields.filter((f) => f.id !== written.id && pageOf(structure.containers, f.containerId)?.id !== ownPage.id);
    if (page && isDobOnlyPage(page.fieldTypes) && optionsJumpingTo(others, ownPage.identity).length) {
      throw new Invalid([{ pointer: '/data/attributes/oFormFieldTypeId', detail: DOB_PAGE_IS_TARGET }]);
    }
  }
}

/** A new question at the end of its container. Answers its id. */
export async function createQuestion(db: Db, user: AuthUser, context: ContainerContext, attributes: v.InferOutput<typeof FieldInput>): Promise<number> {
  const type = attributes.oFormFieldTypeId ?? 'placeholder';
  const configuration = parseConfiguration(type, attributes.configuration);
  await assertCategory(db, attributes.categoryId, '/data/attributes/categoryId');
  await assertTags(db, attributes.tagIds);
  return db.transaction(async (tx) => {
    await lockEditable(tx, context.form.id);
    await assertTransitions(tx, user, context, { id: null, type, configuration, typeChanged: true });
    const siblings = await fieldSiblings(tx, context.container.id);
    const created = await insertedRow(
      tx
        .insert(oFormFields)
        .values({
          identity: randomUUID(),
          containerId: context.container.id,
          title: attributes.title ?? PLACEHOLDER_TITLE,
          type,
          categoryId: attributes.categoryId ?? null,
          isActive: attributes.isActive,
          displayOrder: siblings.length + 1,
          configuration,
        })
        .returning({ id: oFormFields.id }),
    );
    await closeGaps(tx, oFormFields, siblings);
    await writeTags(tx, { field: created.id }, attributes.tagIds);
    return created.id;
  });
}

/** Changes a question (its type, configuration, category, tags, activity) and moves it among its siblings. */
export async function updateQuestion(db: Db, user: AuthUser, context: FieldContext, attributes: v.InferOutput<typeof FieldPatch>): Promise<void> {
  const id = context.field.id;
  const { tagIds, displayOrder, configuration: rawConfiguration, oFormFieldTypeId: newType, ...values } = attributes;
  const type = newType ?? (context.field.type as FieldType);
  const typeChanged = type !== context.field.type;
  const configuration = rawConfiguration !== undefined || typeChanged ? parseConfiguration(type, rawConfiguration ?? context.field.configuration) : undefined;
  await assertCategory(db, values.categoryId, '/data/attributes/categoryId');
  await assertTags(db, tagIds);
  await db.transaction(async (tx) => {
    await lockEditable(tx, context.form.id);
    if (configuration) await assertTransitions(tx, user, context, { id, type, configuration, typeChanged });
    const set = { ...values, ...(typeChanged ? { type } : {}), ...(configuration ? { configuration } : {}) };
    if (Object.keys(set).length) await tx.update(oFormFields).set(set).where(eq(oFormFields.id, id));
    await writeTags(tx, { field: id }, tagIds);
    if (displayOrder !== undefined) await moveTo(tx, oFormFields, await fieldSiblings(tx, context.container.id), id, displayOrder);
  });
}

/** Deletes a question (409 when that leaves a page options jump to with date-of-birth questions only) and closes the gap. */
export async function deleteQuestion(db: Db, context: FieldContext): Promise<void> {
  const id = context.field.id;
  await db.transaction(async (tx) => {
    await lockEditable(tx, context.form.id);
    // Would the page be left with only date-of-birth questions while options jump to it?
    const structure = await loadStructure(tx, context.form.id);
    const page = pageOf(structure.containers, context.container.id);
    const summary = page && pageSummaries(structure).find((p) => p.identity === page.identity);
    const left = summary ? [...summary.fieldTypes] : [];
    left.splice(left.indexOf(context.field.type as FieldType), 1);
    const outside = structure.fields.filter((f) => pageOf(structure.containers, f.containerId)?.id !== page?.id);
    if (page && isDobOnlyPage(left) && optionsJumpingTo(outside, page.identity).length) {
      throw new Conflict(DOB_PAGE_IS_TARGET);
    }
    await tx.delete(oFormFields).where(eq(oFormFields.id, id));
    await closeGaps(tx, oFormFields, await fieldSiblings(tx, context.container.id));
  });
}

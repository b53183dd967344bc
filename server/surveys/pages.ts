/**
 * A survey version's pages and their child containers as staff write them: made at the end of
 * their siblings (a page titled by its place unless named), changed and moved, deleted unless
 * an option outside the page jumps to it; the version's page count kept with them. Every write
 * takes the version's lock and refuses an approved version (./versions.ts).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import { PARENT_CONTAINER_INVALID, type ContainerInput, type ContainerPatch } from '@core/model/surveyDoc';
import { newPageTitle, optionsJumpingTo, pageInUseMessage } from '@core/survey/authoring';
import type { AuthUser } from '../context';
import type { Conn, Db, Tx } from '../db/open';
import { oFormContainers, oForms } from '../db/schema';
import { Conflict, Invalid } from '../errors';
import { closeGaps, moveTo } from './ordering';
import { loadStructure, type ContainerRow } from './structure';
import { findForm, lockEditable, type FormRow } from './versions';
import { insertedRow } from '../db/rows';

/** A container with its version, found in the user's scope. */
export interface ContainerContext {
  container: ContainerRow;
  form: FormRow;
}

export async function findContainer(db: Conn, id: number | null, user: AuthUser): Promise<ContainerContext | undefined> {
  if (id === null) return undefined;
  const [container] = await db.select().from(oFormContainers).where(eq(oFormContainers.id, id));
  const form = container && (await findForm(db, container.oFormId, user));
  return container && form ? { container, form } : undefined;
}

const containerSiblings = (tx: Tx, formId: number, parentId: number | null) =>
  tx
    .select({ id: oFormContainers.id, displayOrder: oFormContainers.displayOrder })
    .from(oFormContainers)
    .where(and(eq(oFormContainers.oFormId, formId), parentId === null ? sql`${oFormContainers.parentId} is null` : eq(oFormContainers.parentId, parentId)))
    .orderBy(asc(oFormContainers.displayOrder), asc(oFormContainers.id));

/** Keeps containerCount (the progress bar's maximum) equal to the number of pages. */
async function recountPages(tx: Tx, formId: number) {
  const [n] = await tx
    .select({ n: count() })
    .from(oFormContainers)
    .where(and(eq(oFormContainers.oFormId, formId), sql`${oFormContainers.parentId} is null`));
  await tx
    .update(oForms)
    .set({ containerCount: n?.n ?? 0 })
    .where(eq(oForms.id, formId));
}

/** A page (parentId null) or a child container of one of the version's pages. Answers its id. */
export async function createContainer(db: Db, form: FormRow, attributes: v.InferOutput<typeof ContainerInput>): Promise<number> {
  return db.transaction(async (tx) => {
    await lockEditable(tx, form.id);
    if (attributes.parentId !== null) {
      const [parent] = await tx.select().from(oFormContainers).where(eq(oFormContainers.id, attributes.parentId));
      if (!parent || parent.oFormId !== form.id || parent.parentId !== null) {
        throw new Invalid([{ pointer: '/data/attributes/parentId', detail: PARENT_CONTAINER_INVALID }]);
      }
    }
    const siblings = await containerSiblings(tx, form.id, attributes.parentId);
    const pages = attributes.parentId === null ? siblings.length : (await containerSiblings(tx, form.id, null)).length;
    const created = await insertedRow(
      tx
        .insert(oFormContainers)
        .values({
          oFormId: form.id,
          identity: randomUUID(),
          title: attributes.title ?? newPageTitle(pages),
          isActive: attributes.isActive,
          containerType: attributes.parentId === null ? 'root_container' : 'child_container',
          parentId: attributes.parentId,
          displayOrder: siblings.length + 1,
          translations: attributes.translations,
        })
        .returning({ id: oFormContainers.id }),
    );
    await closeGaps(tx, oFormContainers, siblings);
    await recountPages(tx, form.id);
    return created.id;
  });
}

/** Changes a container's title, activity and translations, and moves it among its siblings. */
export async function updateContainer(db: Db, context: ContainerContext, attributes: v.InferOutput<typeof ContainerPatch>): Promise<void> {
  const id = context.container.id;
  const { displayOrder, ...rest } = attributes;
  await db.transaction(async (tx) => {
    await lockEditable(tx, context.form.id);
    if (Object.keys(rest).length) await tx.update(oFormContainers).set(rest).where(eq(oFormContainers.id, id));
    if (displayOrder !== undefined) {
      await moveTo(tx, oFormContainers, await containerSiblings(tx, context.form.id, context.container.parentId), id, displayOrder);
    }
  });
}

/** Deletes a container (409 while options outside it jump to it) and closes the gap it leaves. */
export async function deleteContainer(db: Db, context: ContainerContext): Promise<void> {
  const id = context.container.id;
  await db.transaction(async (tx) => {
    await lockEditable(tx, context.form.id);
    const structure = await loadStructure(tx, context.form.id);
    // Options outside the page (and its child containers) that jump to it.
    const inside = new Set(structure.containers.filter((x) => x.id === id || x.parentId === id).map((x) => x.id));
    const refs = optionsJumpingTo(
      structure.fields.filter((f) => !inside.has(f.containerId)),
      context.container.identity,
    );
    if (refs.length) throw new Conflict(pageInUseMessage(refs));
    await tx.delete(oFormContainers).where(eq(oFormContainers.id, id));
    await closeGaps(tx, oFormContainers, await containerSiblings(tx, context.form.id, context.container.parentId));
    await recountPages(tx, context.form.id);
  });
}

/**
 * Deep copies of a versioned survey's version: the row, its languages, pages and child
 * containers, questions with their tags and option transitions, and its messages.
 *
 * Two uses: the next version of the same survey (identities kept), and a survey copied into a
 * screener as a survey of its own (every identity new). A copied survey's identities are
 * derived from the source's (a name-based UUID), so refreshing the copy from its source later
 * finds the same identities again — the copy's pages keep their identity across its versions
 * — without a column recording where a copy came from.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, max, sql } from 'drizzle-orm';
import type { FieldConfiguration, Transition } from '@core/model/survey';
import { UNKNOWN_IDENTITY, VERSION_RACE } from '@core/model/surveyDoc';
import type { AuthUser } from '../context';
import type { Conn, Db, Tx } from '../db/open';
import { oFormContainers, oFormFieldTags, oFormFields, oFormLanguages, oFormMessages, oForms } from '../db/schema';
import { engagementScope } from '../engagements';
import { Conflict, Invalid } from '../errors';
import { rethrowConstraint } from '../http/sql';
import { selectForms } from './versions';
import { insertedRow } from '../db/rows';

/** A name-based UUID (RFC 4122 layout, SHA-256 truncated): the same inputs, the same identity. */
export function derivedIdentity(namespace: string, name: string): string {
  const hex = createHash('sha256').update(`${namespace}\u0000${name}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The identity survey `sourceIdentity` has once copied into screener `screenerId`. */
export const screenerCopyIdentity = (screenerId: number, sourceIdentity: string) => derivedIdentity(`screener:${screenerId}`, sourceIdentity);

export interface CopyTarget {
  /** The identity the copy belongs to: the source's for a next version, else a new one. */
  identity: string;
  /** A page's or question's identity in the copy. */
  rename: (identity: string) => string;
  /** Where a transition to another survey points in the copy. */
  surveyTarget: (identity: string) => string;
}

/** The next version of a survey: same identities everywhere. */
export const sameIdentities = (identity: string): CopyTarget => ({ identity, rename: (x) => x, surveyTarget: (x) => x });

/** A survey of its own, copied from another: identities derived from the copy's identity. */
export const newSurvey = (identity: string, surveyTarget: (identity: string) => string = (x) => x): CopyTarget => ({
  identity,
  rename: (x) => derivedIdentity(identity, x),
  surveyTarget,
});

function retarget(configuration: FieldConfiguration, target: CopyTarget): FieldConfiguration {
  if (!configuration.options?.length) return configuration;
  const options = configuration.options.map((option) => {
    const t: Transition | null = option.transition ?? null;
    if (t === null || t.to === 'end') return option;
    return {
      ...option,
      transition:
        t.to === 'page' ? { to: 'page' as const, identity: target.rename(t.identity) } : { to: 'survey' as const, identity: target.surveyTarget(t.identity) },
    };
  });
  return { ...configuration, options };
}

/**
 * Copies version `sourceId` as the next version of `target.identity` (version 1 when the
 * identity is new) and answers the copy's id. Unapproved, like every new version.
 */
export async function copyVersion(tx: Tx, sourceId: number, target: CopyTarget): Promise<number> {
  const [source] = await tx.select().from(oForms).where(eq(oForms.id, sourceId));
  if (!source) throw new Error(`survey version ${sourceId} is gone`);
  const [top] = await tx
    .select({ n: max(oForms.version) })
    .from(oForms)
    .where(eq(oForms.identity, target.identity));
  const created = await insertedRow(
    tx
      .insert(oForms)
      .values({
        identity: target.identity,
        version: (top?.n ?? 0) + 1,
        title: source.title,
        isActive: source.isActive,
        engagementId: source.engagementId,
        sponsorId: source.sponsorId,
        containerCount: source.containerCount,
      })
      .returning({ id: oForms.id }),
  );
  const langs = await tx.select().from(oFormLanguages).where(eq(oFormLanguages.oFormId, source.id));
  if (langs.length) await tx.insert(oFormLanguages).values(langs.map((l) => ({ oFormId: created.id, languageId: l.languageId })));

  const containers = await tx.select().from(oFormContainers).where(eq(oFormContainers.oFormId, source.id)).orderBy(asc(oFormContainers.id));
  const newIds = new Map<number, number>();
  // Pages first, then their child containers (whose parents then have new ids).
  for (const container of [...containers.filter((x) => x.parentId === null), ...containers.filter((x) => x.parentId !== null)]) {
    const { id: oldId, oFormId: _form, parentId, identity, ...rest } = container;
    const copy = await insertedRow(
      tx
        .insert(oFormContainers)
        .values({ ...rest, identity: target.rename(identity), oFormId: created.id, parentId: parentId === null ? null : (newIds.get(parentId) ?? null) })
        .returning({ id: oFormContainers.id }),
    );
    newIds.set(oldId, copy.id);
  }
  const fields = containers.length
    ? await tx
        .select()
        .from(oFormFields)
        .where(
          inArray(
            oFormFields.containerId,
            containers.map((x) => x.id),
          ),
        )
        .orderBy(asc(oFormFields.id))
    : [];
  for (const field of fields) {
    const { id: oldId, containerId, identity, configuration, ...rest } = field;
    const copy = await insertedRow(
      tx
        .insert(oFormFields)
        .values({
          ...rest,
          identity: target.rename(identity),
          containerId: newIds.get(containerId) ?? containerId,
          configuration: retarget(configuration as FieldConfiguration, target),
        })
        .returning({ id: oFormFields.id }),
    );
    const fieldTags = await tx.select().from(oFormFieldTags).where(eq(oFormFieldTags.fieldId, oldId));
    if (fieldTags.length) await tx.insert(oFormFieldTags).values(fieldTags.map((t) => ({ fieldId: copy.id, tagId: t.tagId })));
  }
  const messages = await tx.select().from(oFormMessages).where(eq(oFormMessages.oFormVersionId, source.id));
  if (messages.length) {
    await tx.insert(oFormMessages).values(
      messages.map((m) => ({
        oFormIdentity: target.identity,
        oFormVersionId: created.id,
        messageType: m.messageType,
        language: m.language,
        message: m.message,
      })),
    );
  }
  return created.id;
}

/**
 * The next version of survey `identity`, as far as `user` reaches it: a copy of its latest
 * version, same identities, new ids. Two copies at once race for the version number; the
 * loser answers 409 rather than a second version with the same number.
 */
export async function copyLatestVersion(db: Db, identity: string, user: AuthUser): Promise<number> {
  const [latest] = await selectForms(db)
    .where(and(eq(oForms.identity, identity), engagementScope(user)))
    .orderBy(sql`${oForms.version} desc`)
    .limit(1);
  if (!latest) throw new Invalid([{ pointer: '/data/attributes/copy_identity', detail: UNKNOWN_IDENTITY }]);
  return db
    .transaction((tx) => copyVersion(tx, latest.id, sameIdentities(identity)))
    .catch((error: unknown) => rethrowConstraint(error, { unique: () => new Conflict(VERSION_RACE) }));
}

/**
 * The version of `identity` to copy from: the approved one when `preferApproved` and there
 * is one, else the latest.
 */
export async function sourceVersion(db: Conn, identity: string, preferApproved: boolean): Promise<{ id: number; version: number } | undefined> {
  if (preferApproved) {
    const [approved] = await db
      .select({ id: oForms.id, version: oForms.version })
      .from(oForms)
      .where(and(eq(oForms.identity, identity), eq(oForms.isApproved, true)));
    if (approved) return approved;
  }
  const [latest] = await db
    .select({ id: oForms.id, version: oForms.version })
    .from(oForms)
    .where(eq(oForms.identity, identity))
    .orderBy(desc(oForms.version))
    .limit(1);
  return latest;
}

/** Which of `identities` are survey identities (have at least one version). */
export async function existingIdentities(db: Conn, identities: readonly string[]): Promise<Set<string>> {
  if (identities.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ identity: oForms.identity })
    .from(oForms)
    .where(inArray(oForms.identity, [...identities]));
  return new Set(rows.map((r) => r.identity));
}

/**
 * The surveys copied for a screener (see screenerCopyIdentity), linked to it or not any more:
 * every identity that is the copy identity of another existing one.
 */
export async function copiesMadeFor(db: Conn, screenerId: number): Promise<string[]> {
  const all = (await db.selectDistinct({ identity: oForms.identity }).from(oForms)).map((r) => r.identity);
  const derived = new Set(all.map((identity) => screenerCopyIdentity(screenerId, identity)));
  return all.filter((identity) => derived.has(identity));
}

/**
 * Where a copy made for screener `screenerId` sends a transition to another survey: to that
 * survey's copy for the same screener when the screener has it (`linked`), else unchanged.
 */
export const screenerSurveyTarget =
  (screenerId: number, linked: ReadonlySet<string>) =>
  (identity: string): string => {
    const copy = screenerCopyIdentity(screenerId, identity);
    return linked.has(copy) ? copy : identity;
  };

/**
 * Copies survey `sourceIdentity` for screener `screenerId`: version 1 of its copy, or the
 * copy's next version when it has one already. Null when the identity has no version.
 */
export async function copyIntoScreener(
  tx: Tx,
  screenerId: number,
  sourceIdentity: string,
  options: { preferApproved: boolean; linked: ReadonlySet<string> },
): Promise<{ identity: string; versionId: number; sourceVersionId: number } | null> {
  const source = await sourceVersion(tx, sourceIdentity, options.preferApproved);
  if (!source) return null;
  const identity = screenerCopyIdentity(screenerId, sourceIdentity);
  const versionId = await copyVersion(tx, source.id, newSurvey(identity, screenerSurveyTarget(screenerId, options.linked)));
  return { identity, versionId, sourceVersionId: source.id };
}

/**
 * A versioned survey's languages and the translations they still lack. The default language
 * (English) is always one of a version's languages: a write keeps it whatever it names.
 * Enabled languages deactivated since are not checked. Approval (./approval.ts) refuses a
 * version while translations are missing.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Relationship } from '@core/jsonapi';
import { LANGUAGE_NOT_AVAILABLE, MISSING_TRANSLATIONS, MISSING_TRANSLATIONS_CODE, type MissingTranslation } from '@core/model/surveyExport';
import { missingTranslations } from '@core/survey/translations';
import type { Conn, Tx } from '../db/open';
import { languages, oFormLanguages, oFormMessages } from '../db/schema';
import { toManyIds } from '../http/body';
import { Invalid } from '../errors';
import { loadStructure, pageOf } from './structure';

/**
 * The language ids a write's `languages` relationship names (undefined when it names none),
 * each an active language; anything else is a 422 pointing at it.
 */
export async function readLanguagesRelationship(db: Conn, relationships: Record<string, Relationship>): Promise<number[] | undefined> {
  const rel = relationships.languages;
  if (rel === undefined) return undefined;
  const pointer = '/data/relationships/languages/data';
  const ids = toManyIds(rel.data, 'languages');
  if (ids === null) throw new Invalid([{ pointer, detail: 'Must be a list of languages identifiers.' }]);
  const found = ids.length
    ? await db
        .select({ id: languages.id })
        .from(languages)
        .where(and(inArray(languages.id, ids), eq(languages.isActive, true)))
    : [];
  if (found.length !== ids.length) throw new Invalid([{ pointer, detail: LANGUAGE_NOT_AVAILABLE }]);
  return ids;
}

/** Replaces a version's languages with `ids` and the default language. */
export async function writeFormLanguages(tx: Tx, formId: number, ids: readonly number[]) {
  const defaults = await tx.select({ id: languages.id }).from(languages).where(eq(languages.isDefault, true));
  const all = [...new Set([...ids, ...defaults.map((d) => d.id)])];
  await tx.delete(oFormLanguages).where(eq(oFormLanguages.oFormId, formId));
  if (all.length) await tx.insert(oFormLanguages).values(all.map((languageId) => ({ oFormId: formId, languageId })));
}

/** Active languages a version is offered in, beside the default one (API iso codes). */
async function enabledTranslationLanguages(db: Conn, formId: number): Promise<string[]> {
  const rows = await db
    .select({ isoCode: languages.isoCode })
    .from(oFormLanguages)
    .innerJoin(languages, eq(languages.id, oFormLanguages.languageId))
    .where(and(eq(oFormLanguages.oFormId, formId), eq(languages.isActive, true), eq(languages.isDefault, false)))
    .orderBy(asc(languages.isoCode));
  return rows.map((r) => r.isoCode);
}

/** What a version still lacks in its enabled languages (see core/survey/translations.ts). */
export async function findMissingTranslations(db: Conn, form: { id: number }): Promise<MissingTranslation[]> {
  const languageCodes = await enabledTranslationLanguages(db, form.id);
  if (languageCodes.length === 0) return [];
  const structure = await loadStructure(db, form.id);
  const reachable = structure.fields.filter((f) => {
    const container = structure.containers.find((x) => x.id === f.containerId);
    const page = pageOf(structure.containers, f.containerId);
    return f.isActive && container?.isActive !== false && page?.isActive !== false;
  });
  // Questions in the order participants meet them: page order, then the question's own.
  const pageOrder = (containerId: number) => pageOf(structure.containers, containerId)?.displayOrder ?? 0;
  const ordered = [...reachable].sort((a, b) => pageOrder(a.containerId) - pageOrder(b.containerId) || a.displayOrder - b.displayOrder);
  const messages = await db
    .select({ messageType: oFormMessages.messageType, language: oFormMessages.language, message: oFormMessages.message })
    .from(oFormMessages)
    .where(eq(oFormMessages.oFormVersionId, form.id));
  const pages = structure.containers.filter((c) => c.parentId === null && c.isActive).map((c) => ({ ...c, id: String(c.id) }));
  return missingTranslations(
    languageCodes,
    pages,
    ordered.map((f) => ({ ...f, id: String(f.id) })),
    messages,
  );
}

/** The 422 mark_approved answers while translations are missing. */
export const missingTranslationsProblem = (missing: MissingTranslation[]) =>
  new Invalid(MISSING_TRANSLATIONS(missing.length), {
    title: 'Missing Translations',
    code: MISSING_TRANSLATIONS_CODE,
    meta: { code: MISSING_TRANSLATIONS_CODE, missing },
  });

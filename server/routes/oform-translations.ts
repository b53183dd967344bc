/**
 * A versioned survey's languages and the translations they still lack:
 * GET /api/o-forms/languages-o-forms?oFormId=ID, the `languages` relationship of a survey's
 * POST or PATCH, and GET /api/o-forms/o-forms/{id}/missing-translations — the same list that
 * blocks mark_approved with a 422 (code missing_translations).
 *
 * The default language (English) is always one of a survey's languages: a write keeps it
 * whatever it names. Enabled languages that were deactivated since are not offered and not
 * checked.
 */
import type { Hono } from 'hono';
import { and, asc, eq, inArray } from 'drizzle-orm';
import * as v from 'valibot';
import type { Relationship } from '../../core/jsonapi';
import {
  LANGUAGE_NOT_AVAILABLE,
  MISSING_TRANSLATIONS,
  MISSING_TRANSLATIONS_CODE,
  OFORM_LANGUAGE_TYPE,
  type MissingTranslation,
  type OFormLanguage,
} from '../../core/model/oformExport';
import { missingTranslations } from '../../core/oform/translations';
import type { AppEnv } from '../context';
import type { Conn, Db, Tx } from '../db/open';
import { languages, oFormLanguages, oFormMessages } from '../db/schema';
import { ApiProblem, badRequest, invalid, notFound } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument, sendList, toResource } from '../http/serialize';
import { loadStructure, pageOf } from '../oform/structure';
import { findForm } from '../oform/versions';

const RelationshipIds = v.array(v.object({ type: v.literal('languages'), id: v.pipe(v.string(), v.regex(/^\d{1,9}$/)) }));

/**
 * The language ids a write's `languages` relationship names (undefined when it names none),
 * each an active language; anything else is a 422 pointing at it.
 */
export async function readLanguagesRelationship(db: Conn, relationships: Record<string, Relationship>): Promise<number[] | undefined> {
  const rel = relationships.languages;
  if (rel === undefined) return undefined;
  const pointer = '/data/relationships/languages/data';
  const parsed = v.safeParse(RelationshipIds, rel.data);
  if (!parsed.success) throw invalid([{ pointer, detail: 'Must be a list of languages identifiers.' }]);
  const ids = [...new Set(parsed.output.map((r) => Number(r.id)))];
  const found = ids.length
    ? await db.select({ id: languages.id }).from(languages).where(and(inArray(languages.id, ids), eq(languages.isActive, true)))
    : [];
  if (found.length !== ids.length) throw invalid([{ pointer, detail: LANGUAGE_NOT_AVAILABLE }]);
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

/** What a version still lacks in its enabled languages (see core/oform/translations.ts). */
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
  return missingTranslations(languageCodes, ordered.map((f) => ({ ...f, id: String(f.id) })), messages);
}

/** The 422 mark_approved answers while translations are missing. */
export const missingTranslationsProblem = (missing: MissingTranslation[]) =>
  new ApiProblem(422, [
    {
      status: '422',
      title: 'Missing Translations',
      detail: MISSING_TRANSLATIONS(missing.length),
      code: MISSING_TRANSLATIONS_CODE,
      meta: { code: MISSING_TRANSLATIONS_CODE, missing },
    },
  ]);

export function oFormTranslationsRoutes(app: Hono<AppEnv>, db: Db) {
  app.get('/languages-o-forms', async (c) => {
    const raw = c.req.query('oFormId');
    const formId = parseId(raw);
    if (formId === null) throw badRequest("'oFormId' must be a survey version id.", 'oFormId');
    const form = await findForm(db, formId, c.get('user'));
    if (!form) throw notFound('survey');
    const enabled = new Set(
      (await db.select({ id: oFormLanguages.languageId }).from(oFormLanguages).where(eq(oFormLanguages.oFormId, form.id))).map((r) => r.id),
    );
    const rows = await db
      .select({ id: languages.id, name: languages.name, isoCode: languages.isoCode, isDefault: languages.isDefault })
      .from(languages)
      .where(eq(languages.isActive, true))
      .orderBy(asc(languages.name), asc(languages.id));
    const data = rows.map((l) => {
      const resource: OFormLanguage = {
        id: `${form.id}-${l.id}`,
        oFormId: String(form.id),
        languageId: String(l.id),
        isoCode: l.isoCode,
        name: l.name,
        isEnabled: l.isDefault || enabled.has(l.id),
      };
      const { id, ...attributes } = resource;
      return toResource(OFORM_LANGUAGE_TYPE, id, attributes);
    });
    return sendList(c, data, { total: data.length, page: 1, limit: data.length });
  });

  app.get('/o-forms/:id/missing-translations', async (c) => {
    const form = await findForm(db, parseId(c.req.param('id')), c.get('user'));
    if (!form) throw notFound('survey');
    return sendDocument(c, { data: await findMissingTranslations(db, form) });
  });
}

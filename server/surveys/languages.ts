/** Which active languages a survey version is offered in: the default language always, the others as enabled for it. */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/open';
import { languages, oFormLanguages } from '../db/schema';

export async function surveyLanguageChoices(db: Db, formId: number) {
  const enabled = new Set((await db.select({ id: oFormLanguages.languageId }).from(oFormLanguages).where(eq(oFormLanguages.oFormId, formId))).map((r) => r.id));
  const rows = await db
    .select({ id: languages.id, name: languages.name, isoCode: languages.isoCode, isDefault: languages.isDefault })
    .from(languages)
    .where(eq(languages.isActive, true))
    .orderBy(asc(languages.name), asc(languages.id));
  return rows.map((l) => ({ ...l, isEnabled: l.isDefault || enabled.has(l.id) }));
}

/**
 * Languages as the rest of the server relies on them: a text's translations may only be keyed
 * by languages that exist and are not the default one (generic messages, contact fields,
 * legacy questions and options, screeners all check theirs here), and the messages that say so.
 */
import { Invalid } from '../errors';
import type { Db } from '../db/open';
import { languages } from '../db/schema';

export const LANGUAGE_MESSAGES = {
  isoCodeTaken: 'This language code is already in use.',
  defaultUndeletable: 'The default language cannot be deleted.',
  defaultAlwaysActive: 'The default language is always active.',
  defaultCodeFixed: "The default language's code cannot change.",
  unknownLanguage: (code: string) => `There is no language with the code '${code}'. Add it under Languages first.`,
  defaultNotTranslation: "The default language's text is the message itself, not a translation.",
} as const;

/**
 * Translations may only name languages that exist and are not the default one. Each unknown
 * code is a 422 pointing at it, e.g. `/data/attributes/translations/fr`.
 */
export async function assertTranslationLanguages(db: Db, translations: Record<string, string> | undefined, pointer: string) {
  if (!translations) return;
  const codes = Object.keys(translations);
  if (codes.length === 0) return;
  const rows = await db.select({ isoCode: languages.isoCode, isDefault: languages.isDefault }).from(languages);
  const known = new Map(rows.map((r) => [r.isoCode.toLowerCase(), r.isDefault]));
  const issues = codes.flatMap((code) => {
    const isDefault = known.get(code.toLowerCase());
    if (isDefault === undefined) return [{ pointer: `${pointer}/${code}`, detail: LANGUAGE_MESSAGES.unknownLanguage(code) }];
    if (isDefault) return [{ pointer: `${pointer}/${code}`, detail: LANGUAGE_MESSAGES.defaultNotTranslation }];
    return [];
  });
  if (issues.length) throw new Invalid(issues);
}

import * as v from 'valibot';
import { isApiIsoCode } from '../i18n';
import { message } from '../validation/messages';
import { hasMaxLength } from '../validation/rules';
import { ISO_CODE_FORMAT } from './language';

/** A translation's key: the language's API iso code (`es`, `es_MX`). */
export const languageKey = v.pipe(v.string(), v.check(isApiIsoCode, ISO_CODE_FORMAT));

/**
 * Texts per language, keyed by the API iso code. A blank text removes that language's
 * translation, so the stored map holds only real texts.
 */
export const translations = (max: number) =>
  v.pipe(
    v.record(
      languageKey,
      v.nullable(
        v.pipe(
          v.string(message('required')),
          v.trim(),
          v.check((s) => hasMaxLength(s, max), message('max', { length: max })),
        ),
      ),
    ),
    v.transform((map) => Object.fromEntries(Object.entries(map).filter((e): e is [string, string] => !!e[1]))),
  );

/** Texts per language as the API answers them: only real texts, keyed by the API iso code. */
export const answeredTranslations = () => v.pipe(v.record(v.string(), v.string()), v.description('Texts by language, keyed by its API iso code (es, es_MX).'));

export type Translations = Record<string, string>;

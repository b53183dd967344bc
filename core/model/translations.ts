import * as v from 'valibot';
import { isApiIsoCode } from '../i18n';
import { message } from '../validation/messages';
import { hasMaxLength } from '../validation/rules';
import { ISO_CODE_FORMAT } from './language';

/**
 * Texts per language, keyed by the API iso code (`es`, `es_MX`). A blank text removes that
 * language's translation, so the stored map holds only real texts.
 */
export const translations = (max: number) =>
  v.pipe(
    v.record(
      v.pipe(v.string(), v.check(isApiIsoCode, ISO_CODE_FORMAT)),
      v.nullable(v.pipe(v.string(message('required')), v.trim(), v.check((s) => hasMaxLength(s, max), message('max', { length: max })))),
    ),
    v.transform((map) => Object.fromEntries(Object.entries(map).filter((e): e is [string, string] => !!e[1]))),
  );

export type Translations = Record<string, string>;

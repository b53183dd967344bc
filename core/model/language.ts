import * as v from 'valibot';
import { isApiIsoCode, normalizeIsoCode } from '../i18n';
import { flag, requiredText } from './fields';
import { answered, instant, resourceAnswer } from './answers';

export const LANGUAGE_TYPE = 'languages';

export const ISO_CODE_FORMAT = 'Enter a language code such as en, es or es-MX.';

/**
 * An iso code in either form (`es-MX` or `es_MX`), stored and answered in the API form with
 * an underscore.
 */
export const isoCode = () => v.pipe(requiredText(35), v.transform(normalizeIsoCode), v.check(isApiIsoCode, ISO_CODE_FORMAT));

export const LanguageInput = v.strictObject({
  name: requiredText(100),
  description: requiredText(255),
  isoCode: isoCode(),
  isActive: v.optional(flag(), true),
});
export const LanguagePatch = v.partial(LanguageInput);

export type LanguageInput = v.InferInput<typeof LanguageInput>;

/** A language as the API answers it: the one description of its attributes; `isoCode` in the API form (`es_MX`). */
export const LANGUAGE = resourceAnswer(
  LANGUAGE_TYPE,
  v.object({
    name: v.string(),
    description: v.string(),
    isoCode: v.string(),
    isActive: v.boolean(),
    isDefault: v.pipe(v.boolean(), v.description('The default language (English): cannot be deleted or deactivated.')),
    created: instant(),
    modified: instant(),
  }),
);

/** A language as core's readers flatten it. */
export const Language = answered(LANGUAGE);
export type Language = v.InferOutput<typeof Language>;

export const LANGUAGE_SORTS = ['name', 'description', 'isoCode', 'isActive', 'isDefault', 'created', 'modified'] as const;
export const LANGUAGE_DEFAULT_SORT = 'description';
export const LANGUAGE_DEFAULT_LIMIT = 1000;

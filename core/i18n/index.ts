/**
 * Language codes. The interface writes them with a hyphen (`es-MX`), the API with an
 * underscore (`es_MX`); the fallback of a code is its part before the hyphen.
 */
export const DEFAULT_LANGUAGE = 'en';

export const toApiIsoCode = (code: string): string => code.replace(/-/g, '_');
export const toUiIsoCode = (code: string): string => code.replace(/_/g, '-');
export const fallbackIsoCode = (code: string): string => toUiIsoCode(code).split('-')[0] ?? DEFAULT_LANGUAGE;

// A language (2 or 3 letters) and optional subtags (region, script): en, es_MX, zh_Hant_TW.
export const API_ISO_CODE = /^[a-z]{2,3}(?:_[A-Za-z0-9]{2,8})*$/;

/** True for an iso code in the API form (underscores). */
export const isApiIsoCode = (code: string): boolean => API_ISO_CODE.test(code);

/**
 * The API form of a code typed in either form, with the conventional case: language lower
 * case, a two-letter region upper case, a four-letter script title case (`ES-mx` -> `es_MX`).
 */
export function normalizeIsoCode(code: string): string {
  const [language = '', ...subtags] = toApiIsoCode(code.trim()).split('_');
  const rest = subtags.map((tag) => (tag.length === 2 ? tag.toUpperCase() : tag.length === 4 ? tag.charAt(0).toUpperCase() + tag.slice(1).toLowerCase() : tag));
  return [language.toLowerCase(), ...rest].join('_');
}

/**
 * Language codes. The interface writes them with a hyphen (`es-MX`), the API with an
 * underscore (`es_MX`); the fallback of a code is its part before the hyphen.
 */
export const DEFAULT_LANGUAGE = 'en';

export const toApiIsoCode = (code: string): string => code.replace(/-/g, '_');
export const toUiIsoCode = (code: string): string => code.replace(/_/g, '-');
export const fallbackIsoCode = (code: string): string => toUiIsoCode(code).split('-')[0] ?? DEFAULT_LANGUAGE;

import { useEffect, useState } from 'react';
import { languagesApi } from '@core/api/languages';
import { toUiIsoCode } from '@core/i18n';
import type { Language } from '@core/model/language';
import type { SelectOption } from './useOptions';
import { useApi } from '../state/services';

export interface ActiveLanguages {
  /** Every active language, the default one first. */
  all: Language[];
  /** The active languages that take translations (all but the default). */
  translated: Language[];
  /** For a language select: value is the interface code (`es-MX`). */
  options: SelectOption[];
  loading: boolean;
  error: string | null;
}

/** SPEC section 8, verbatim: languages (the active ones, or a survey's) could not be read. */
export const GET_LANGUAGES_FAILED = 'Could not get languages';

export const languageLabel = (language: Pick<Language, 'description' | 'isoCode'>) => `${language.description} (${toUiIsoCode(language.isoCode)})`;

/** The active languages, for translation fields and language choices. */
export function useActiveLanguages(): ActiveLanguages {
  const api = useApi(languagesApi);
  const [state, setState] = useState<{ all: Language[]; loading: boolean; error: string | null }>({ all: [], loading: true, error: null });
  useEffect(() => {
    let current = true;
    api.active().then(
      (result) => current && setState({ all: result.items, loading: false, error: null }),
      () => current && setState({ all: [], loading: false, error: GET_LANGUAGES_FAILED }),
    );
    return () => {
      current = false;
    };
  }, [api]);
  return {
    ...state,
    translated: state.all.filter((l) => !l.isDefault),
    options: state.all.map((l) => ({ value: toUiIsoCode(l.isoCode), label: languageLabel(l) })),
  };
}

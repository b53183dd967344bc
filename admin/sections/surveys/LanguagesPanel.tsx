/**
 * The survey's languages (translations are asked for in each enabled one; the default language
 * always is) and the switcher choosing which language's texts the builder edits.
 */
import { useEffect, useState } from 'react';
import { surveyExportsApi } from '@core/api/surveyExports';
import { FormErrors } from '../../components/form/FormErrors';
import { Select } from '../../components/form/Select';
import type { Language } from '@core/model/language';
import type { SurveyLanguage } from '@core/model/surveyExport';
import { useAsync } from '../../hooks/useAsync';
import { languageLabel } from '../../hooks/useLanguages';
import { useApi } from '../../state/services';
import type { EditorContext } from './context';
import { GET_LANGUAGES_FAILED, TOGGLE_LANGUAGE_FAILED, failureText } from './values';
import './surveys.css';

export function LanguagesPanel({
  ctx,
  language,
  onLanguage,
  defaultIso,
  known,
}: {
  ctx: EditorContext;
  language: string | null;
  onLanguage: (iso: string | null) => void;
  defaultIso: string;
  /** The active languages, for their descriptions (labels read as everywhere else: 'Spanish (es)'). */
  known: readonly Language[];
}) {
  const exportsApi = useApi(surveyExportsApi);
  const formId = ctx.detail.form.id;
  const state = useAsync(() => exportsApi.languages(formId), [exportsApi, formId]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Shown switched at once; put back if the server refuses.
  const [rows, setRows] = useState<SurveyLanguage[]>([]);
  useEffect(() => setRows(state.data ?? []), [state.data]);
  const label = (row: SurveyLanguage) => {
    const language = known.find((l) => l.id === row.languageId);
    return language ? languageLabel(language) : `${row.name} (${row.isoCode})`;
  };
  const translatable = rows.filter((l) => l.isEnabled && l.isoCode !== defaultIso);

  const toggle = async (languageId: string, enabled: boolean) => {
    setBusy(true);
    setError(null);
    const before = rows;
    const after = rows.map((l) => (l.languageId === languageId ? { ...l, isEnabled: enabled } : l));
    setRows(after);
    try {
      await exportsApi.setLanguages(
        formId,
        after.filter((l) => l.isEnabled).map((l) => l.languageId),
      );
      const iso = rows.find((l) => l.languageId === languageId)?.isoCode;
      if (!enabled && iso === language) onLanguage(null);
    } catch (e) {
      setRows(before);
      setError(failureText(e, TOGGLE_LANGUAGE_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-label="Survey languages" aria-busy={busy || state.loading || undefined}>
      <h2 className="section-title">Languages</h2>
      <FormErrors message={error ?? (state.error ? GET_LANGUAGES_FAILED : null)} />
      <fieldset className="survey-languages" aria-label="Enabled languages">
        {rows.map((l) => (
          <label key={l.languageId} className="check-item">
            <input
              type="checkbox"
              checked={l.isEnabled}
              disabled={busy || ctx.frozen || l.isoCode === defaultIso}
              onChange={(e) => void toggle(l.languageId, e.target.checked)}
            />{' '}
            {label(l)}
          </label>
        ))}
      </fieldset>
      <Select
        label="Editing language"
        name="editing-language"
        options={[{ value: '', label: `Default (${defaultIso})` }, ...translatable.map((l) => ({ value: l.isoCode, label: label(l) }))]}
        value={language ?? ''}
        onChange={(iso) => onLanguage(iso || null)}
      />
    </section>
  );
}

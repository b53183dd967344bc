/**
 * A text in the default language beside its translation in each active language: one row per
 * language, the default (English) first. Translations are keyed by the API iso code.
 */
import type { ReactNode } from 'react';
import type { Language } from '@core/model/language';
import { languageLabel } from '../../hooks/useLanguages';
import { TextArea } from './TextArea';
import { TextField } from './TextField';
import './form.css';

export interface TranslationFieldsProps {
  /** The languages that take translations (not the default one). */
  languages: readonly Language[];
  values: Readonly<Record<string, string>>;
  onChange: (isoCode: string, text: string) => void;
  /** The default language's row: its label and control, e.g. the message's own field. */
  defaultRow: { label: string; control: ReactNode };
  multiline?: boolean;
  maxLength?: number;
  loading?: boolean;
  error?: string | null;
}

export function TranslationFields({ languages, values, onChange, defaultRow, multiline, maxLength, loading, error }: TranslationFieldsProps) {
  const Control = multiline ? TextArea : TextField;
  return (
    <table className="translations-table">
      <caption className="sr-only">Translations</caption>
      <thead>
        <tr>
          <th scope="col">Language</th>
          <th scope="col">Text</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">{defaultRow.label}</th>
          <td>{defaultRow.control}</td>
        </tr>
        {languages.map((language) => (
          <tr key={language.isoCode}>
            <th scope="row">{languageLabel(language)}</th>
            <td>
              <Control
                label={`${language.description} translation`}
                name={`translation-${language.isoCode}`}
                value={values[language.isoCode] ?? ''}
                maxLength={maxLength}
                onChange={(text: string) => onChange(language.isoCode, text)}
              />
            </td>
          </tr>
        ))}
        {loading && (
          <tr>
            <td colSpan={2} className="muted">
              Loading languages…
            </td>
          </tr>
        )}
        {error && (
          <tr>
            <td colSpan={2} className="field-error" role="alert">
              {error}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

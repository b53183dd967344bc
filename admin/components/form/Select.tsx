import type { SelectOption } from '../../hooks/useOptions';
import { Field, useControlIds, type FieldProps } from './Field';

export type { SelectOption };

export interface SelectProps extends FieldProps {
  /** '' when nothing is chosen. */
  value: string;
  onChange: (value: string) => void;
  options: readonly SelectOption[];
  /** The empty choice's text; leave out to make a choice compulsory. */
  emptyLabel?: string;
  loading?: boolean;
}

export function Select({ label, name, error, hint, required, disabled, value, onChange, options, emptyLabel, loading }: SelectProps) {
  const ids = useControlIds(name, error, hint);
  return (
    <Field ids={ids} label={label} error={error} hint={hint} required={required}>
      <select
        {...ids}
        className="input"
        name={name}
        value={value}
        required={required}
        disabled={disabled || loading}
        aria-busy={loading || undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <SelectChoices options={options} emptyLabel={loading ? 'Loading…' : emptyLabel} />
      </select>
    </Field>
  );
}

/** A select's options, for a bare select too (a row's or an inline form's): `emptyLabel`, when given, first as the '' choice. */
export function SelectChoices({ options, emptyLabel }: { options: readonly SelectOption[]; emptyLabel?: string }) {
  return (
    <>
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </>
  );
}

/** A fixed list of values as options, each under its label. */
export const labelledOptions = <V extends string>(values: readonly V[], labels: Readonly<Record<V, string>>): SelectOption[] =>
  values.map((value) => ({ value, label: labels[value] }));

/** A list of options still loading (useOptions and kin) as a Select's props: its failure shows as the field's hint. */
export const loadedOptions = (list: { options: readonly SelectOption[]; loading: boolean; error: string | null }) => ({
  options: list.options,
  loading: list.loading,
  hint: list.error ?? undefined,
});

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
        {(emptyLabel !== undefined || loading) && <option value="">{loading ? 'Loading…' : emptyLabel}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
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

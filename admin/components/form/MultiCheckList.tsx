/**
 * Choosing several of a list: a fieldset of checkboxes, with a filter box when the list is
 * long. Chosen items stay listed first, so what is chosen is always in sight.
 */
import { useId, useMemo, useState } from 'react';
import { FieldMessages } from './Field';
import type { SelectOption } from './Select';
import './form.css';

export interface MultiCheckListProps {
  label: string;
  name: string;
  options: readonly SelectOption[];
  /** The chosen options' values. */
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: string;
  hint?: string;
  required?: boolean;
  loading?: boolean;
  /** Show a filter box above this many options. */
  filterFrom?: number;
  /** Show at most this many unchosen options at once (the filter finds the others). */
  maxShown?: number;
}

export function MultiCheckList({
  label,
  name,
  options,
  value,
  onChange,
  error,
  hint,
  required,
  loading,
  filterFrom = 12,
  maxShown = 100,
}: MultiCheckListProps) {
  const id = `${name}-${useId()}`;
  const [filter, setFilter] = useState('');
  const chosen = useMemo(() => new Set(value), [value]);
  const needle = filter.trim().toLowerCase();
  const matching = options.filter((o) => !chosen.has(o.value) && (!needle || o.label.toLowerCase().includes(needle)));
  const shown = [...options.filter((o) => chosen.has(o.value)), ...matching.slice(0, maxShown)];
  const toggle = (option: string, on: boolean) => onChange(on ? [...value, option] : value.filter((v) => v !== option));
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <fieldset className={error ? 'field multi-check has-error' : 'field multi-check'} aria-describedby={described} aria-busy={loading || undefined}>
      <legend className={required ? 'field-label required' : 'field-label'}>{label}</legend>
      {options.length > filterFrom && (
        <input
          className="input multi-check-filter"
          type="search"
          aria-label={`Filter ${label}`}
          placeholder="Filter…"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      )}
      {loading ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul className="multi-check-options">
          {shown.map((option) => (
            <li key={option.value}>
              <label>
                <input
                  type="checkbox"
                  name={name}
                  value={option.value}
                  checked={chosen.has(option.value)}
                  onChange={(event) => toggle(option.value, event.target.checked)}
                />{' '}
                {option.label}
              </label>
            </li>
          ))}
          {shown.length === 0 && <li className="muted">{needle ? `Nothing matches “${filter.trim()}”.` : 'Nothing to choose.'}</li>}
          {matching.length > maxShown && <li className="muted">{matching.length - maxShown} more: type to filter.</li>}
        </ul>
      )}
      <FieldMessages id={id} error={error} hint={hint} />
    </fieldset>
  );
}

import { useEffect, useState } from 'react';
import { Select } from '../form/Select';
import { TextField } from '../form/TextField';
import type { ListFilterField } from './filters';
import './list.css';

export const TEXT_FILTER_DELAY_MS = 400;

function TextFilter({ field, value, onChange }: { field: ListFilterField; value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onChange(text.trim()), TEXT_FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return <TextField label={field.label} name={`filter-${field.name}`} value={text} maxLength={255} onChange={setText} />;
}

/** The list's filters beside its search, and one button that clears them all (and the search). */
export function ListFilters({
  fields,
  values,
  onChange,
  onClear,
  active,
}: {
  fields: readonly ListFilterField[];
  values: Record<string, string>;
  onChange: (name: string, value: string) => void;
  onClear: () => void;
  /** Whether anything narrows the list now (a filter or the search). */
  active: boolean;
}) {
  return (
    <div className="list-filters" role="group" aria-label="Filters">
      {fields.map((field) => {
        const value = values[field.name] ?? '';
        switch (field.kind) {
          case 'select':
            return (
              <Select
                key={field.name}
                label={field.label}
                name={`filter-${field.name}`}
                emptyLabel="All"
                options={field.options}
                loading={field.loading}
                value={value}
                onChange={(next) => onChange(field.name, next)}
              />
            );
          case 'date':
            return (
              <TextField
                key={field.name}
                type="date"
                label={field.label}
                name={`filter-${field.name}`}
                value={value}
                onChange={(next) => onChange(field.name, next)}
              />
            );
          case 'text':
            return <TextFilter key={field.name} field={field} value={value} onChange={(next) => onChange(field.name, next)} />;
        }
      })}
      <button type="button" className="btn btn-secondary btn-small list-filters-clear" disabled={!active} onClick={onClear}>
        Clear filters
      </button>
    </div>
  );
}

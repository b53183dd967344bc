import type { ReactNode } from 'react';
import './components.css';

export interface ViewField {
  label: string;
  value: ReactNode;
  /** Keeps line breaks of long texts. */
  multiline?: boolean;
}

/** How a read-only value reads: Yes/No for flags, a dash for nothing. */
export function displayValue(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return value as ReactNode;
}

/** A record's fields as a read-only label/value list (view screens). */
export function ViewFields({ fields }: { fields: readonly ViewField[] }) {
  return (
    <dl className="view-fields">
      {fields.map((field) => (
        <div key={field.label} className="view-field">
          <dt>{field.label}</dt>
          <dd className={field.multiline ? 'multiline' : undefined}>{displayValue(field.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

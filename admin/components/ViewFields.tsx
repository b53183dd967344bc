import type { ReactNode } from 'react';
import './components.css';
import { formatDateTime } from './format';
import { StatusBadge } from './StatusBadge';

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

/** A field of a view: a key shows the record's own value under the screen's label for it. */
export type FieldSpec<T, L> = (keyof T & keyof L & string) | ViewField;

/**
 * The fields of a view in the screen's words: keys read the record as it is, written-out
 * fields say what the screen shows instead (a badge, a link, a formatted date).
 */
export function recordFields<T, L extends Readonly<Record<string, string>>>(labels: L, record: T, specs: readonly FieldSpec<T, L>[]): ViewField[] {
  return specs.map((spec) => (typeof spec === 'string' ? { label: labels[spec] ?? spec, value: displayValue(record[spec]) } : spec));
}

/** The Active badge, labelled as the screen labels it. */
export const activeField = (labels: { isActive: string }, record: { isActive: boolean }): ViewField => ({
  label: labels.isActive,
  value: <StatusBadge active={record.isActive} />,
});

/** A long text that keeps its line breaks. */
export const multilineField = (label: string, value: string | null | undefined): ViewField => ({ label, value, multiline: true });

/** When the record was created and last changed. */
export const stampFields = (labels: { created: string; modified: string }, record: { created: string; modified: string }): ViewField[] => [
  { label: labels.created, value: formatDateTime(record.created) },
  { label: labels.modified, value: formatDateTime(record.modified) },
];

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

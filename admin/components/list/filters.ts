/** The filters a list screen offers beside the search, declared once per screen. */
import type { SelectOption } from '../form/Select';

export type ListFilterField =
  /** One of a list: 'All' clears it. */
  | { kind: 'select'; name: string; label: string; options: readonly SelectOption[]; loading?: boolean }
  /** A calendar day. */
  | { kind: 'date'; name: string; label: string }
  /** Typed text, applied once typing pauses. */
  | { kind: 'text'; name: string; label: string };

/** A true/false field's filter: `yes` and `no` name its two values. */
export const flagFilter = (name: string, label: string, yes: string, no: string): ListFilterField => ({
  kind: 'select',
  name,
  label,
  options: [
    { value: 'true', label: yes },
    { value: 'false', label: no },
  ],
});

export const activeFilter = (label = 'Status'): ListFilterField => flagFilter('isActive', label, 'Active', 'Inactive');

export const sponsorFilter = (options: { options: readonly SelectOption[]; loading: boolean }): ListFilterField => ({
  kind: 'select',
  name: 'sponsorId',
  label: 'Sponsor',
  ...options,
});

export const filterNames = (fields: readonly ListFilterField[]) => fields.map((f) => f.name);

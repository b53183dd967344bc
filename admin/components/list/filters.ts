/** The filters a list screen offers beside the search, declared once per screen. */
import type { SelectOption } from '../form/Select';

export type ListFilterField =
  /** One of a list: 'All' clears it. */
  | { kind: 'select'; name: string; label: string; options: readonly SelectOption[]; loading?: boolean }
  /** A calendar day. */
  | { kind: 'date'; name: string; label: string }
  /** Typed text, applied once typing pauses. */
  | { kind: 'text'; name: string; label: string };

export const activeFilter = (label = 'Status'): ListFilterField => ({
  kind: 'select',
  name: 'isActive',
  label,
  options: [
    { value: 'true', label: 'Active' },
    { value: 'false', label: 'Inactive' },
  ],
});

export const sponsorFilter = (options: { options: readonly SelectOption[]; loading: boolean }): ListFilterField => ({
  kind: 'select',
  name: 'sponsorId',
  label: 'Sponsor',
  ...options,
});

export const filterNames = (fields: readonly ListFilterField[]) => fields.map((f) => f.name);

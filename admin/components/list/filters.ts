/** The filters a list screen offers beside the search, declared once per screen. */
import { labelledOptions, type SelectOption } from '../form/Select';

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

/** One of a list, or of a list still loading (useOptions and kin: only its options and loading count). */
export const selectFilter = (
  name: string,
  label: string,
  choices: readonly SelectOption[] | { options: readonly SelectOption[]; loading: boolean },
): ListFilterField =>
  'options' in choices
    ? { kind: 'select', name, label, options: choices.options, loading: choices.loading }
    : { kind: 'select', name, label, options: choices };

/** One of a fixed list of values, each under its label. */
export const labelledFilter = <V extends string>(name: string, label: string, values: readonly V[], labels: Readonly<Record<V, string>>): ListFilterField =>
  selectFilter(name, label, labelledOptions(values, labels));

/** A span of calendar days as two filters, its first day and its last. */
export const dateRangeFilters = (fromLabel: string, toLabel: string, [from, to] = ['from', 'to']): ListFilterField[] => [
  { kind: 'date', name: from, label: fromLabel },
  { kind: 'date', name: to, label: toLabel },
];

export const activeFilter = (label = 'Status'): ListFilterField => flagFilter('isActive', label, 'Active', 'Inactive');

type LoadingOptions = { options: readonly SelectOption[]; loading: boolean };

export const sponsorFilter = (options: LoadingOptions): ListFilterField => selectFilter('sponsorId', 'Sponsor', options);

export const engagementFilter = (options: LoadingOptions): ListFilterField => selectFilter('engagementId', 'Engagement', options);

export const filterNames = (fields: readonly ListFilterField[]) => fields.map((f) => f.name);

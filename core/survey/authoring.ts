/**
 * Authoring rules of SPEC section 4, shared by the server (which applies them) and the
 * builder (which offers what they allow).
 */
import type { FieldConfiguration, FieldType, OptionConfig } from '../model/survey';

export const PLACEHOLDER_TITLE = 'Placeholder';
export const NONE_OF_THE_ABOVE = 'None of the Above';

/** The title of the page added when the survey has `pageCount` pages: 'New Page 1', 'New Page 2'... */
export const newPageTitle = (pageCount: number): string => `New Page ${pageCount + 1}`;

const NONE_OF_THE_ABOVE_VALUE = 'none_of_the_above';

export const noneOfTheAbove = (): OptionConfig => ({
  label: NONE_OF_THE_ABOVE,
  value: NONE_OF_THE_ABOVE_VALUE,
  translations: {},
  isDisqualified: false,
  transition: null,
});

/**
 * A question's configuration as it is saved: a 'multiple' question given no options gets
 * 'None of the Above'; new options are not disqualifying unless said so.
 */
export function withAuthoringDefaults(type: FieldType, configuration: FieldConfiguration): FieldConfiguration {
  if (type === 'multiple' && configuration.options.length === 0) {
    return { ...configuration, options: [noneOfTheAbove()] };
  }
  // A yes/no question is asked with Yes and No, so either can be marked disqualifying at once.
  if (type === 'yes_no' && configuration.options.length === 0) {
    return { ...configuration, options: yesNoOptions() };
  }
  return configuration;
}

/** The two options a yes/no question starts with. */
export const yesNoOptions = (): OptionConfig[] =>
  (['Yes', 'No'] as const).map((label) => ({ label, value: label.toLowerCase(), translations: {}, isDisqualified: false, transition: null }));

/** The 'None of the Above' choice: the one a multiple question starts with, or one staff typed. */
export const isNoneOfTheAbove = (option: { label: string; value: string }): boolean =>
  option.value === NONE_OF_THE_ABOVE_VALUE || option.label.trim().toLowerCase() === NONE_OF_THE_ABOVE.toLowerCase();

/**
 * Where a new option goes among `options` (0-based): last, except before a 'None of the Above'
 * that is last, so participants keep seeing it last. Once staff move it elsewhere, new options
 * simply go last.
 */
export function newOptionIndex(options: readonly { label: string; value: string }[]): number {
  const last = options[options.length - 1];
  return last !== undefined && isNoneOfTheAbove(last) ? options.length - 1 : options.length;
}

/** `options` with `option` added where newOptionIndex says. */
export function withNewOption<T extends { label: string; value: string }>(options: readonly T[], option: T): T[] {
  const at = newOptionIndex(options);
  return [...options.slice(0, at), option, ...options.slice(at)];
}

export interface PageSummary {
  identity: string;
  title: string;
  displayOrder: number;
  fieldTypes: readonly FieldType[];
}

/**
 * Whether a page holding questions of these types may not be jumped to: it has questions and all
 * of them ask for a date of birth (a page still empty is being built, so it may).
 */
export function isDobOnlyPage(fieldTypes: readonly string[]): boolean {
  return fieldTypes.length > 0 && fieldTypes.every((t) => t === 'dob');
}

/**
 * Pages an option may jump to: every page but the ones whose questions are all date-of-birth
 * questions (isDobOnlyPage).
 */
export function transitionTargets<P extends PageSummary>(pages: readonly P[], from?: string): P[] {
  return [...pages]
    .sort((a, b) => a.displayOrder - b.displayOrder)
    .filter((p) => p.identity !== from)
    .filter((p) => !isDobOnlyPage(p.fieldTypes));
}

/**
 * Moves the item at `from` to `to` and renumbers displayOrder 1..n, so orders stay dense
 * whatever was moved or deleted before.
 */
export function reorder<T extends { displayOrder: number }>(items: readonly T[], from: number, to: number): T[] {
  const sorted = [...items].sort((a, b) => a.displayOrder - b.displayOrder);
  const [moved] = sorted.splice(from, 1);
  if (moved !== undefined) sorted.splice(Math.max(0, Math.min(to, sorted.length)), 0, moved);
  return renumber(sorted);
}

const renumber = <T extends { displayOrder: number }>(items: readonly T[]): T[] => items.map((item, index) => ({ ...item, displayOrder: index + 1 }));

/** Renumbers 1..n in the current order, closing the gaps deletions leave. */
export const densify = <T extends { displayOrder: number }>(items: readonly T[]): T[] => renumber([...items].sort((a, b) => a.displayOrder - b.displayOrder));

export interface OptionReference {
  fieldTitle: string;
  optionLabel: string;
}

/**
 * Options elsewhere in the survey that jump to `pageIdentity`. Deleting a page they point at
 * is refused with a message naming them (see `pageInUseMessage`).
 */
export function optionsJumpingTo(
  fields: readonly { title: string; configuration: Pick<FieldConfiguration, 'options'> }[],
  pageIdentity: string,
): OptionReference[] {
  return fields.flatMap((f) =>
    f.configuration.options
      .filter((o) => o.transition?.to === 'page' && o.transition.identity === pageIdentity)
      .map((o) => ({ fieldTitle: f.title, optionLabel: o.label })),
  );
}

/** A page options jump to must keep a question that is not a date of birth (those pages are skipped, never jumped to). */
export const DOB_PAGE_IS_TARGET =
  'Options jump to this page; a page holding only date-of-birth questions cannot be jumped to. Point those options elsewhere first.';

export const pageInUseMessage = (refs: readonly OptionReference[]): string =>
  `This page cannot be deleted: ${refs.map((r) => `'${r.optionLabel}' of '${r.fieldTitle}'`).join(', ')} ${
    refs.length === 1 ? 'jumps' : 'jump'
  } to it. Point ${refs.length === 1 ? 'that option' : 'those options'} elsewhere first.`;

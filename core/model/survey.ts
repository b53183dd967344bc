/**
 * Versioned surveys (oForms, SPEC sections 3 and 4): the field types, and the `configuration`
 * object of a question, validated on every write by the server and read by the runner.
 */
import * as v from 'valibot';
import { message } from '../validation/messages';
import { isDateFormat } from '../validation/rules';
import { FIELD_TYPES, type FieldType } from './kinds';
import { languageKey, translations } from './translations';

export { FIELD_TYPES, type FieldType };

export const OFORM_TYPE = 'o-forms';

/** What staff see for each question type (builders, views, the field-types lookup). */
export const FIELD_TYPE_NAMES: Record<FieldType, string> = {
  placeholder: 'Placeholder',
  single: 'Single choice',
  multiple: 'Multiple choice',
  dropdown: 'Dropdown',
  yes_no: 'Yes / No',
  text: 'Text',
  number: 'Number',
  email: 'Email',
  phone: 'Phone',
  zip: 'ZIP code',
  date: 'Date',
  dob: 'Date of birth',
};

/** Types whose answers are chosen from options (and may therefore transition or disqualify). */
export const CHOICE_TYPES: readonly FieldType[] = ['single', 'multiple', 'dropdown', 'yes_no'];
export const isChoiceType = (type: FieldType) => CHOICE_TYPES.includes(type);

/** Where answering an option leads: a page of this survey, the end, or another survey. */
export const Transition = v.variant('to', [
  v.strictObject({ to: v.literal('page'), identity: v.pipe(v.string(), v.nonEmpty(message('required'))) }),
  v.strictObject({ to: v.literal('end') }),
  v.strictObject({ to: v.literal('survey'), identity: v.pipe(v.string(), v.nonEmpty(message('required'))) }),
]);
export type Transition = v.InferOutput<typeof Transition>;

const label = v.pipe(v.string(message('required')), v.trim(), v.nonEmpty(message('required')), v.maxLength(500, message('max', { length: 500 })));

export const OptionConfig = v.strictObject({
  label,
  value: v.pipe(v.string(message('required')), v.trim(), v.nonEmpty(message('required')), v.maxLength(200, message('max', { length: 200 }))),
  translations: v.optional(translations(500), {}),
  isDisqualified: v.optional(v.boolean(message('boolean')), false),
  /** Engagement ids this option disqualifies for (isDisqualified disqualifies for all of them). */
  disqualifiedFor: v.optional(v.array(v.pipe(v.number(message('integer')), v.integer(message('integer')), v.minValue(1, message('integer'))))),
  transition: v.optional(v.nullable(Transition), null),
});
export type OptionConfig = v.InferOutput<typeof OptionConfig>;

const count = () => v.pipe(v.number(message('integer')), v.integer(message('integer')), v.minValue(0, message('integer')));
// Limits are stored as y-MM-dd calendar days, checked by the same rule the answers use.
const isoDate = () =>
  v.pipe(
    v.string(message('date_format')),
    v.check((s) => isDateFormat(s, { utc: true }), message('date_format')),
  );

const translatedText = v.optional(v.string());
/** Per language (API iso code): a question's title and helper text, as staff translate them. */
export const FieldTranslations = v.record(languageKey, v.strictObject({ title: translatedText, helperText: translatedText }));
/** Per language: a page's title, in the same shape and under the same checks as a question's. */
export const PageTranslations = v.record(languageKey, v.strictObject({ title: translatedText }));
export type PageTranslations = v.InferOutput<typeof PageTranslations>;

/** What every question's configuration may hold; which parts apply depends on its type. */
export const FieldConfiguration = v.strictObject({
  required: v.optional(v.boolean(message('boolean')), false),
  helperText: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000, message('max', { length: 1000 })))), null),
  /** Per language: the question's title and helper text. */
  translations: v.optional(FieldTranslations, {}),
  minLength: v.optional(count()),
  maxLength: v.optional(count()),
  minValue: v.optional(v.number(message('numeric'))),
  maxValue: v.optional(v.number(message('numeric'))),
  minDate: v.optional(isoDate()),
  maxDate: v.optional(isoDate()),
  minAge: v.optional(count()),
  maxAge: v.optional(count()),
  options: v.optional(v.array(OptionConfig), []),
});
export type FieldConfiguration = v.InferOutput<typeof FieldConfiguration>;

/** Limits that come in pairs: the second must not be below the first. */
const ORDERED: [keyof FieldConfiguration, keyof FieldConfiguration, string][] = [
  ['minLength', 'maxLength', 'The maximum length must not be below the minimum.'],
  ['minValue', 'maxValue', 'The maximum must not be below the minimum.'],
  ['minDate', 'maxDate', 'The latest date must not be before the earliest.'],
  ['minAge', 'maxAge', 'The maximum age must not be below the minimum age.'],
];

/** Keys of the configuration that each type may use, beyond required, helperText and translations. */
const TYPE_KEYS: Record<FieldType, readonly (keyof FieldConfiguration)[]> = {
  placeholder: [],
  single: ['options'],
  multiple: ['options'],
  dropdown: ['options'],
  yes_no: ['options'],
  text: ['minLength', 'maxLength'],
  number: ['minValue', 'maxValue'],
  email: [],
  phone: [],
  zip: [],
  date: ['minDate', 'maxDate'],
  dob: ['minAge', 'maxAge'],
};
const COMMON_KEYS = ['required', 'helperText', 'translations'];

/** The per-type limits a question of `type` may set (min/max length, value, date or age). */
export const limitKeys = (type: FieldType): (keyof FieldConfiguration)[] => TYPE_KEYS[type].filter((k) => k !== 'options');

/** A configuration carried over to `type`: what that type cannot hold is left behind. */
export function configurationFor(type: FieldType, configuration: FieldConfiguration): FieldConfiguration {
  const kept = Object.entries(configuration).filter(([key]) => COMMON_KEYS.includes(key) || TYPE_KEYS[type].includes(key as keyof FieldConfiguration));
  return { required: false, helperText: null, translations: {}, options: [], ...Object.fromEntries(kept) };
}

/** The configuration schema of a question of `type`: limits in order, options unique. */
export function fieldConfiguration(type: FieldType) {
  return v.pipe(
    FieldConfiguration,
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const at = (key: string, value: unknown): [v.IssuePathItem] => [{ type: 'object', origin: 'value', input: dataset.value, key, value }];
      for (const [key, value] of Object.entries(dataset.value)) {
        const empty = value === undefined || (Array.isArray(value) && value.length === 0);
        if (!empty && !COMMON_KEYS.includes(key) && !TYPE_KEYS[type].includes(key as keyof FieldConfiguration)) {
          addIssue({ message: `A ${type} question has no ${key}.`, path: at(key, value) });
        }
      }
      for (const [low, high, text] of ORDERED) {
        const a = dataset.value[low];
        const b = dataset.value[high];
        if (a !== undefined && b !== undefined && (a as number | string) > (b as number | string)) {
          addIssue({ message: text, path: at(high, b) });
        }
      }
      const seen = new Set<string>();
      dataset.value.options.forEach((option, index) => {
        if (seen.has(option.value)) {
          addIssue({
            message: 'Each option needs a value of its own.',
            path: [
              { type: 'object', origin: 'value', input: dataset.value, key: 'options', value: dataset.value.options },
              { type: 'array', origin: 'value', input: dataset.value.options, key: index, value: option },
              { type: 'object', origin: 'value', input: option, key: 'value', value: option.value },
            ],
          });
        }
        seen.add(option.value);
      });
    }),
  );
}

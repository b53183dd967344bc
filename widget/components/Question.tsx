import { impliedOptions } from '@core/survey/impliedOptions';
import type { Answer } from '@core/survey/navigation';
import type { RunnerField } from '@core/survey/runner';
import type { ParticipantText } from '@core/i18n/participant';
import { describedBy, Err, helpText, Input, Req } from './Fields';

/** A translation in `lang` (API form): the exact language, then its base language; undefined when neither. */
export function translated<T>(map: Record<string, T> | undefined, lang: string): T | undefined {
  return map?.[lang] || map?.[lang.split('_')[0]!] || undefined;
}

interface QuestionProps {
  field: RunnerField;
  value: Answer;
  error?: string;
  lang: string;
  text: ParticipantText;
  disabled: boolean;
  /** The channel's region: outside the US a ZIP question takes letters too (A1A 1A1). */
  region?: string;
  onAnswer: (identity: string, value: Answer) => void;
}

// Input type, input mode, autocomplete and placeholder per free-entry question type.
export const ENTRY: Partial<Record<RunnerField['type'], [string, 'numeric' | 'tel' | 'email' | 'text', string?, string?]>> = {
  text: ['text', 'text'],
  number: ['text', 'numeric'],
  email: ['email', 'email', 'email'],
  phone: ['tel', 'tel', 'tel', '000-000-0000'],
  zip: ['text', 'numeric', 'postal-code'],
  date: ['date', 'text'],
  dob: ['date', 'text', 'bday'],
};

/** One question of a page, labelled, with its helper text and its inline error. */
export function Question({ field, value, error, lang, text, disabled, region, onAnswer }: QuestionProps) {
  const c = field.configuration;
  const t = translated(c.translations, lang);
  const title = t?.title || field.title;
  const helper = t?.helperText || c.helperText || undefined;
  const id = `tw-f-${field.id}`;
  const set = (v: Answer) => onAnswer(field.identity, v);

  if (field.type === 'placeholder') return null;
  const entry = ENTRY[field.type];
  if (entry) {
    const [type, inputMode, autoComplete, placeholder] = entry;
    return (
      <Input
        id={id}
        label={title}
        required={c.required}
        helper={helper}
        value={typeof value === 'string' ? value : ''}
        error={error}
        type={type}
        inputMode={field.type == 'zip' && region ? 'text' : inputMode}
        autoComplete={autoComplete}
        maxLength={field.type === 'zip' ? 10 : c.maxLength}
        placeholder={placeholder}
        min={field.type === 'date' ? c.minDate : undefined}
        max={field.type === 'date' ? c.maxDate : undefined}
        disabled={disabled}
        text={text}
        onInput={set}
      />
    );
  }

  const options = [
    ...c.options.map((o) => ({ value: o.value, label: translated(o.translations, lang) ?? o.label })),
    ...impliedOptions(field.type, c.options).map((value) => ({ value, label: text[value] })),
  ];
  const described = describedBy(id, helper, error);
  const helperEl = helpText(id, helper);

  if (field.type === 'dropdown') {
    return (
      <div class="tw-field">
        <label for={id} class="tw-label">
          {title}
          {c.required && <Req text={text} />}
        </label>
        {helperEl}
        <select
          id={id}
          class="tw-input"
          value={typeof value === 'string' ? value : ''}
          disabled={disabled}
          aria-required={c.required}
          aria-invalid={!!error}
          aria-describedby={described}
          onChange={(e) => set(e.currentTarget.value || null)}
        >
          <option value="">{text.choose}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <Err id={`${id}-err`} error={error} />
      </div>
    );
  }

  const multiple = field.type === 'multiple';
  const chosen = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return (
    <fieldset
      class="tw-field tw-fieldset"
      aria-invalid={!!error}
      aria-describedby={described}
      aria-required={multiple ? undefined : c.required}
      role={multiple ? undefined : 'radiogroup'}
    >
      <legend class="tw-label">
        {title}
        {c.required && <Req text={text} />}
      </legend>
      {helperEl}
      {options.map((o) => (
        <label class="tw-choice" key={o.value}>
          <input
            type={multiple ? 'checkbox' : 'radio'}
            name={id}
            value={o.value}
            checked={chosen.includes(o.value)}
            disabled={disabled}
            onChange={(e) => {
              // The boxes ticked now, read from the group: two quick clicks between renders both count.
              const group = e.currentTarget.closest('fieldset')!.querySelectorAll<HTMLInputElement>('input:checked');
              set(multiple ? Array.from(group, (i) => i.value) : o.value);
            }}
          />
          <span>{o.label}</span>
        </label>
      ))}
      <Err id={`${id}-err`} error={error} />
    </fieldset>
  );
}

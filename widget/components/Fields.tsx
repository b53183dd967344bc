import type { ParticipantText } from '@core/i18n/participant';

type Text = ParticipantText;

export function Err({ id, error }: { id: string; error?: string }) {
  return (
    <p id={id} class="tw-error" aria-live="assertive">
      {error ?? ''}
    </p>
  );
}

/** A field's helper text and error, by their ids, for its control's aria-describedby; undefined for neither. */
export const describedBy = (id: string, helper?: string, error?: string) =>
  [helper ? `${id}-help` : '', error ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;

/** A field's helper text under its label, when it has one (the id describedBy names). */
export const helpText = (id: string, helper?: string) =>
  helper && (
    <p id={`${id}-help`} class="tw-helper">
      {helper}
    </p>
  );

interface InputProps {
  id: string;
  label: string;
  required?: boolean;
  value: string;
  error?: string;
  type: string;
  text: Text;
  helper?: string;
  inputMode?: 'numeric' | 'tel' | 'email' | 'text';
  autoComplete?: string;
  maxLength?: number;
  placeholder?: string;
  min?: string;
  max?: string;
  disabled?: boolean;
  onInput: (value: string) => void;
}

export function Input({ label, helper, error, text, onInput, required, ...p }: InputProps) {
  return (
    <div class="tw-field">
      <label for={p.id} class="tw-label">
        {label}
        {required && <Req text={text} />}
      </label>
      {helpText(p.id, helper)}
      {/* The rest as the input's own attributes (type, value, inputMode, autoComplete, maxLength…). */}
      <input
        {...p}
        class="tw-input"
        type={p.type as 'text'}
        aria-required={required}
        aria-invalid={!!error}
        aria-describedby={describedBy(p.id, helper, error)}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      <Err id={`${p.id}-err`} error={error} />
    </div>
  );
}

export function Req({ text }: { text: Text }) {
  return (
    <span class="tw-req">
      <span aria-hidden="true"> *</span>
      <span class="tw-sr"> ({text.required})</span>
    </span>
  );
}

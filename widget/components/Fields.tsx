import type { ParticipantText } from '@core/i18n/participant';

type Text = ParticipantText;

export function Err({ id, error }: { id: string; error?: string }) {
  return (
    <p id={id} class="tw-error" aria-live="assertive">
      {error ?? ''}
    </p>
  );
}

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

export function Input(p: InputProps) {
  const described = [p.helper ? `${p.id}-help` : '', p.error ? `${p.id}-err` : ''].filter(Boolean).join(' ');
  return (
    <div class="tw-field">
      <label for={p.id} class="tw-label">
        {p.label}
        {p.required && <Req text={p.text} />}
      </label>
      {p.helper && (
        <p id={`${p.id}-help`} class="tw-helper">
          {p.helper}
        </p>
      )}
      <input
        id={p.id}
        class="tw-input"
        type={p.type as "text"}
        value={p.value}
        inputMode={p.inputMode}
        autoComplete={p.autoComplete}
        maxLength={p.maxLength}
        placeholder={p.placeholder}
        min={p.min}
        max={p.max}
        disabled={p.disabled}
        aria-required={p.required}
        aria-invalid={!!p.error}
        aria-describedby={described || undefined}
        onInput={(e) => p.onInput(e.currentTarget.value)}
      />
      <Err id={`${p.id}-err`} error={p.error} />
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


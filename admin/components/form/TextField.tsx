import type { HTMLAttributes } from 'react';
import { Field, useControlIds, type FieldProps } from './Field';

export interface TextFieldProps extends FieldProps {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'tel' | 'url' | 'number' | 'date';
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  maxLength?: number;
  placeholder?: string;
  autoFocus?: boolean;
  /** e.g. a server check of the value once the user leaves the field. */
  onBlur?: () => void;
}

export function TextField({ label, name, error, hint, required, disabled, value, onChange, type = 'text', ...rest }: TextFieldProps) {
  const ids = useControlIds(name, error, hint);
  return (
    <Field ids={ids} label={label} error={error} hint={hint} required={required}>
      <input
        {...ids}
        {...rest}
        className="input"
        name={name}
        type={type}
        value={value}
        required={required}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

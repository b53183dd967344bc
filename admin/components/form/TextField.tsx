import type { HTMLAttributes } from 'react';
import { Field } from './Field';
import { type TextControlProps, useTextControl } from './textControl';

export interface TextFieldProps extends TextControlProps {
  type?: 'text' | 'email' | 'password' | 'tel' | 'url' | 'number' | 'date';
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  maxLength?: number;
  placeholder?: string;
  autoFocus?: boolean;
  /** e.g. a server check of the value once the user leaves the field. */
  onBlur?: () => void;
}

export function TextField({ type = 'text', ...props }: TextFieldProps) {
  const { field, control } = useTextControl(props);
  return (
    <Field {...field}>
      <input {...control} type={type} />
    </Field>
  );
}

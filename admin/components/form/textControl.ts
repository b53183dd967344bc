import type { ChangeEvent } from 'react';
import { type FieldProps, useControlIds } from './Field';

/** What a text control (an input or a textarea) takes besides its own attributes. */
export interface TextControlProps extends FieldProps {
  value: string;
  onChange: (value: string) => void;
}

/**
 * Splits a text control's props: what its `Field` shows around it, and the control's attributes
 * (its ids, name, value and state, and changes reported as text), with the control's own extras.
 */
export function useTextControl<P extends TextControlProps>({ label, name, error, hint, required, disabled, value, onChange, ...rest }: P) {
  const ids = useControlIds(name, error, hint);
  return {
    field: { ids, label, error, hint, required },
    control: {
      ...ids,
      ...rest,
      className: 'input',
      name,
      value,
      required,
      disabled,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
    },
  };
}

import { TextField, type TextFieldProps } from './TextField';

/** A field for a whole number (days, hours, a count): a number input with the phone's digit keyboard. */
export function WholeNumberField(props: Omit<TextFieldProps, 'type' | 'inputMode'>) {
  return <TextField {...props} type="number" inputMode="numeric" />;
}

import { Field } from './Field';
import { type TextControlProps, useTextControl } from './textControl';

export interface TextAreaProps extends TextControlProps {
  rows?: number;
  maxLength?: number;
  placeholder?: string;
}

export function TextArea({ rows = 4, ...props }: TextAreaProps) {
  const { field, control } = useTextControl(props);
  return (
    <Field {...field}>
      <textarea {...control} rows={rows} />
    </Field>
  );
}

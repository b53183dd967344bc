import { Field, useControlIds, type FieldProps } from './Field';

export interface TextAreaProps extends FieldProps {
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  maxLength?: number;
  placeholder?: string;
}

export function TextArea({ label, name, error, hint, required, disabled, value, onChange, rows = 4, ...rest }: TextAreaProps) {
  const ids = useControlIds(name, error, hint);
  return (
    <Field ids={ids} label={label} error={error} hint={hint} required={required}>
      <textarea
        {...ids}
        {...rest}
        className="input"
        name={name}
        rows={rows}
        value={value}
        required={required}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

import { FieldMessages, useControlIds, type FieldProps } from './Field';
import './form.css';

export interface CheckboxProps extends FieldProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

export function Checkbox({ label, name, error, hint, disabled, checked, onChange }: CheckboxProps) {
  const ids = useControlIds(name, error, hint);
  return (
    <div className={error ? 'field field-checkbox has-error' : 'field field-checkbox'}>
      <input {...ids} type="checkbox" name={name} checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={ids.id}>{label}</label>
      <FieldMessages id={ids.id} error={error} hint={hint} />
    </div>
  );
}

import { useId, type ReactNode } from 'react';
import './form.css';

/** What every form control takes besides its value. */
export interface FieldProps {
  /** The visible label; also the control's accessible name. */
  label: string;
  name: string;
  error?: string;
  hint?: string;
  required?: boolean;
  disabled?: boolean;
}

export interface ControlIds {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** Ids tying a control to its label, hint and error message. */
export function useControlIds(name: string, error?: string, hint?: string): ControlIds {
  const id = `${name}-${useId()}`;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described || undefined };
}

export function FieldMessages({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  );
}

/** Label above, control, then hint and error. The required mark is drawn by CSS, outside the label's text. */
export function Field({
  ids,
  label,
  error,
  hint,
  required,
  children,
}: {
  ids: ControlIds;
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={ids.id} className={required ? 'field-label required' : 'field-label'}>
        {label}
      </label>
      {children}
      <FieldMessages id={ids.id} error={error} hint={hint} />
    </div>
  );
}

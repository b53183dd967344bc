/**
 * The frame of an add/edit screen's form: the top bar's Save submits it by its id; what fails for
 * the whole form shows first, then the fields' grid, then whatever comes `after` it.
 */
import type { FormEvent, ReactNode } from 'react';
import type { TopBarButton } from '../../state/topBar';
import { FormErrors } from './FormErrors';

export function EntityForm({
  id,
  form,
  onSubmit,
  after,
  children,
}: {
  id: string;
  form: { busy: boolean; formError: string | null };
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form id={id} className="panel entity-form" onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
      <FormErrors message={form.formError} />
      <div className="form-grid">{children}</div>
      {after}
    </form>
  );
}

/** The top bar's Cancel (back to `cancel`) and Save (submits the form `formId`; busy while it saves). */
export const saveButtons = (cancel: string, formId: string, busy: boolean): TopBarButton[] => [
  { label: 'Cancel', to: cancel },
  { label: 'Save', submits: formId, busy },
];

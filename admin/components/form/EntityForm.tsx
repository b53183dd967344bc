/**
 * The frame of an add/edit screen's form: the top bar's Save submits it by its id; what fails for
 * the whole form shows first, then the fields' grid, then whatever comes `after` it.
 */
import type { FormEvent, ReactNode } from 'react';
import { type TopBarButton, useTopBar } from '../../state/topBar';
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

/** An add or edit screen's top bar: the record's title (none while adding), Cancel and Save. */
export function useFormTopBar(objectTitle: string | undefined, cancel: string, formId: string, busy: boolean): void {
  useTopBar({ objectTitle, buttons: saveButtons(cancel, formId, busy) });
}

/** Saves what an add or edit form holds: a new record, or the changes to record `id`. */
export const saveRecord = <I, R>(
  api: { create: (input: I) => Promise<R>; update: (id: string, input: I) => Promise<R> },
  id: string | undefined,
  input: I,
): Promise<R> => (id === undefined ? api.create(input) : api.update(id, input));

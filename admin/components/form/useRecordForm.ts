/**
 * An add or edit screen whose form saves one record and then shows it: the top bar (the record's
 * title, Cancel back to its view or to the list) and a submit that parses the values, saves them
 * and opens the saved record's view.
 */
import { useNavigate } from 'react-router-dom';
import type * as v from 'valibot';
import { pathTo, type RouteName } from '../../routing/routes';
import { saveRecord, useFormTopBar } from './EntityForm';
import { type EntityForm, type FormValues, useEntityForm } from './useEntityForm';

export interface RecordFormOptions<V extends FormValues, S extends v.GenericSchema, R extends { id: string }> {
  formId: string;
  api: { create: (input: v.InferOutput<S>) => Promise<R>; update: (id: string, input: v.InferOutput<S>) => Promise<R> };
  /** The record being edited; none while adding. */
  record: { id: string } | undefined;
  /** The top bar's title while editing. */
  title: string | undefined;
  initial: V;
  view: RouteName;
  index: RouteName;
  schema: S;
  toInput: (values: V) => unknown;
  /** Refuses valid input on grounds outside the schema, showing its own messages on `form`. */
  accept?: (input: v.InferOutput<S>, form: EntityForm<V>) => Promise<boolean>;
  /** Hears of the saved record before its view opens. */
  onSaved?: (saved: R) => void;
}

export function useRecordForm<V extends FormValues, S extends v.GenericSchema, R extends { id: string }>(options: RecordFormOptions<V, S, R>) {
  const { formId, api, record, view, schema, toInput, accept, onSaved } = options;
  const navigate = useNavigate();
  const form = useEntityForm(options.initial);

  useFormTopBar(options.title, record ? pathTo(view, { id: record.id }) : pathTo(options.index), formId, form.busy);

  const onSubmit = form.handleSubmit(async (values) => {
    const input = form.parse(schema, toInput(values));
    if (!input) return;
    if (accept && !(await accept(input, form))) return;
    const saved = await saveRecord(api, record?.id, input);
    onSaved?.(saved);
    navigate(pathTo(view, { id: saved.id }));
  });
  return { form, onSubmit };
}

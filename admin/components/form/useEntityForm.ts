/**
 * A form's values, its messages (beside fields and for the whole form) and its busy state.
 * Changed values not yet saved make leaving the screen ask first (components/unsaved).
 * Values are kept as the controls hold them (strings and booleans); the screen maps them to
 * the API's input and validates that with the entity's valibot schema from core/model.
 */
import { useState, useRef, type FormEvent } from 'react';
import * as v from 'valibot';
import { ApiError } from '@core/api/client';
import { errorsByField, errorsToMessage } from '@core/jsonapi';
import { issuesByField } from '@core/model/fields';
import { useUnsavedChanges } from '../unsaved/UnsavedChanges';

export type FormValues = Record<string, string | boolean>;
export type FieldErrors = Partial<Record<string, string>>;

/** SPEC section 8. */
export const SAVE_FAILED = 'Could not save data';

type KeysOfType<V, T> = { [K in keyof V]: V[K] extends T ? K : never }[keyof V] & string;

export interface EntityForm<V extends FormValues> {
  values: V;
  errors: FieldErrors;
  formError: string | null;
  busy: boolean;
  setValue<K extends keyof V>(name: K, value: V[K]): void;
  /** A default that arrived after the form opened (from a record being loaded): set, and not counted as an unsaved change. */
  preset<K extends keyof V>(name: K, value: V[K]): void;
  /** Props for TextField, TextArea and Select. */
  text(name: KeysOfType<V, string>): { name: string; value: string; error?: string; onChange: (value: string) => void };
  /** Props for Checkbox. */
  checkbox(name: KeysOfType<V, boolean>): { name: string; checked: boolean; error?: string; onChange: (checked: boolean) => void };
  /** Validates `input`; on failure shows the messages beside their fields and returns null. */
  parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> | null;
  /** Shows messages found outside the schema (a uniqueness check, say). */
  fail(fieldErrors: FieldErrors, formError?: string | null): void;
  /** An onSubmit handler: runs `action` once at a time, and shows what a failed call says. */
  handleSubmit(action: (values: V) => Promise<void>): (event?: FormEvent) => Promise<void>;
}

export interface EntityFormOptions {
  /** Other state the form saves with its values (lists of ids, translations), counted as unsaved when it changes. */
  also?: unknown;
}

export function useEntityForm<V extends FormValues>(initial: V, options: EntityFormOptions = {}): EntityForm<V> {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const snapshot = (formValues: V) => JSON.stringify([formValues, options.also ?? null]);
  const saved = useRef<string | null>(null);
  saved.current ??= snapshot(initial);
  const latest = useRef('');
  latest.current = snapshot(values);
  // A form being submitted may navigate away (to the saved record's view) before it re-renders.
  useUnsavedChanges(() => !running.current && latest.current !== saved.current);

  const setValue = <K extends keyof V>(name: K, value: V[K]) => {
    setValues((previous) => ({ ...previous, [name]: value }));
    // The message was about the old value.
    setErrors((previous) => (previous[name as string] ? { ...previous, [name]: undefined } : previous));
  };

  const preset = <K extends keyof V>(name: K, value: V[K]) => {
    setValues((previous) => {
      const next = { ...previous, [name]: value };
      if (latest.current === saved.current) saved.current = snapshot(next);
      return next;
    });
  };

  const showFailure = (error: unknown) => {
    if (!(error instanceof ApiError)) {
      setFormError(SAVE_FAILED);
      return;
    }
    const fieldErrors: FieldErrors = {};
    const others = error.errors.filter((e) => {
      const [field, detail] = Object.entries(errorsByField([e]))[0] ?? [];
      if (field === undefined || !(field in values)) return true;
      fieldErrors[field] ??= detail;
      return false;
    });
    setErrors(fieldErrors);
    setFormError(others.length > 0 ? errorsToMessage(others, SAVE_FAILED) : SAVE_FAILED);
  };

  return {
    values,
    errors,
    formError,
    busy,
    setValue,
    preset,
    text: (name) => ({
      name,
      value: values[name] as string,
      error: errors[name],
      onChange: (value: string) => setValue(name, value as V[typeof name]),
    }),
    checkbox: (name) => ({
      name,
      checked: values[name] as boolean,
      error: errors[name],
      onChange: (checked: boolean) => setValue(name, checked as V[typeof name]),
    }),
    parse(schema, input) {
      const result = v.safeParse(schema, input);
      if (result.success) return result.output;
      setErrors(issuesByField(result.issues));
      return null;
    },
    fail(fieldErrors, message = null) {
      setErrors(fieldErrors);
      setFormError(message);
    },
    handleSubmit: (action) => async (event) => {
      event?.preventDefault();
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setErrors({});
      setFormError(null);
      try {
        await action(values);
        // What was sent is what the server has now, even where the screen stays.
        saved.current = latest.current;
      } catch (error) {
        showFailure(error);
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
  };
}

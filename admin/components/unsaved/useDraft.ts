import { type Dispatch, type SetStateAction, useState } from 'react';
import { useUnsavedValue } from './UnsavedChanges';

/**
 * An editor's draft of what the server holds (`stored`, a Save button's editors): it starts as
 * the stored value and counts as unsaved while it differs from it.
 */
export function useDraft<T>(stored: T): [T, Dispatch<SetStateAction<T>>] {
  const [draft, setDraft] = useState(stored);
  useUnsavedValue(draft, stored);
  return [draft, setDraft];
}

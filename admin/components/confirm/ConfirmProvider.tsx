/**
 * One confirm dialog for the whole admin, asked for with a promise:
 *   if (await confirm({ message: 'Are you sure you want to delete this ?' })) ...
 * Escape, a click outside and Cancel all answer false.
 */
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { sanitizeHtml } from './sanitizeHtml';

export interface ConfirmOptions {
  title?: string;
  /** HTML; reduced to a few formatting tags before it is shown. */
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Styles Confirm as a destructive action. */
  danger?: boolean;
}

export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

export const DELETE_CONFIRMATION = 'Are you sure you want to delete this ?';

/** SPEC's question naming what goes: 'Are you sure you want to delete this sponsor “Acme” ?'. */
export const deleteConfirmation = (what?: string, name?: string): string =>
  what ? `Are you sure you want to delete this ${what.toLowerCase()}${name ? ` “${name}”` : ''} ?` : DELETE_CONFIRMATION;

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const pending = useRef<((answer: boolean) => void) | null>(null);

  const settle = useCallback((answer: boolean) => {
    pending.current?.(answer);
    pending.current = null;
    setOptions(null);
  }, []);

  const confirm = useCallback<Confirm>((next) => {
    // A newer question replaces an unanswered one, which counts as cancelled.
    pending.current?.(false);
    setOptions(next);
    return new Promise<boolean>((resolve) => {
      pending.current = resolve;
    });
  }, []);

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog.Root open={options !== null} onOpenChange={(open) => !open && settle(false)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog">
            <Dialog.Title className="dialog-title">{options?.title ?? 'Please confirm'}</Dialog.Title>
            <Dialog.Description asChild>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the message passes the sanitizer first */}
              <div className="dialog-message" dangerouslySetInnerHTML={{ __html: sanitizeHtml(options?.message ?? '') }} />
            </Dialog.Description>
            <div className="dialog-buttons">
              <button type="button" className="btn btn-secondary" onClick={() => settle(false)}>
                {options?.cancelLabel ?? 'Cancel'}
              </button>
              <button type="button" className={options?.danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={() => settle(true)}>
                {options?.confirmLabel ?? 'Confirm'}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs <ConfirmProvider>.');
  return confirm;
}

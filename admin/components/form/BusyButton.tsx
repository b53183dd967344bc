import type { ReactNode } from 'react';

/** A button that starts a call: disabled, and marked busy for assistive technology, while the call runs. */
export function BusyButton({ className, busy, onClick, children }: { className: string; busy: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className={className} disabled={busy} aria-busy={busy || undefined} onClick={onClick}>
      {children}
    </button>
  );
}

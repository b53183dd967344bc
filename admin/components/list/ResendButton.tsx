/** A row's Resend: it waits while its call runs, and says so. */
export function ResendButton({ label, waiting, onClick, children }: { label: string; waiting: boolean; onClick: () => void; children: string }) {
  return (
    <button type="button" className="btn btn-small btn-secondary" disabled={waiting} aria-busy={waiting || undefined} aria-label={label} onClick={onClick}>
      {waiting ? 'Resending…' : children}
    </button>
  );
}

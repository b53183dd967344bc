/** Up and down buttons that move an item of an ordered list by one place (`onMove` gets the 1-based place it goes to). */
export function MoveButtons({
  label,
  index,
  count,
  busy = false,
  onMove,
}: {
  label: string;
  index: number;
  count: number;
  busy?: boolean;
  onMove: (to: number) => void;
}) {
  return (
    <>
      <button
        type="button"
        className="btn btn-small btn-secondary"
        aria-label={`Move ${label} up`}
        disabled={busy || index === 0}
        onClick={() => onMove(index)}
      >
        ↑
      </button>
      <button
        type="button"
        className="btn btn-small btn-secondary"
        aria-label={`Move ${label} down`}
        disabled={busy || index === count - 1}
        onClick={() => onMove(index + 2)}
      >
        ↓
      </button>
    </>
  );
}

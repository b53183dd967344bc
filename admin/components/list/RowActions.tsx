import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** A row's View, Edit and Delete; each shown when given. */
export function RowActions({ view, edit, onDelete }: { view?: string; edit?: string; onDelete?: () => void }) {
  return (
    <div className="row-actions">
      {view && (
        <Link className="btn btn-small btn-secondary" to={view}>
          View
        </Link>
      )}
      {edit && (
        <Link className="btn btn-small btn-secondary" to={edit}>
          Edit
        </Link>
      )}
      {onDelete && (
        <button type="button" className="btn btn-small btn-danger-outline" onClick={onDelete}>
          Delete
        </button>
      )}
    </div>
  );
}

/**
 * A row's own removing button (Delete, Unlink): `remove` asks first and tells whether the row went,
 * and only then `onRemoved` follows (the list reloads).
 */
export function RowRemoveButton({
  label,
  remove,
  onRemoved,
  children,
}: {
  label: string;
  remove: () => Promise<boolean>;
  onRemoved: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="btn btn-small btn-danger-outline"
      aria-label={label}
      onClick={async () => {
        if (await remove()) onRemoved();
      }}
    >
      {children}
    </button>
  );
}

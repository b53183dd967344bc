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

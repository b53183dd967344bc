import { useId, useRef, useState } from 'react';
import { useDismiss } from '../../hooks/useDismiss';
import type { Column } from './DataTable';
import './list.css';

/** A Columns button opening a list of the hideable columns, each with its checkbox; one always stays. */
export function ColumnPicker<T>({ columns, hidden, onChange }: { columns: readonly Column<T>[]; hidden: Set<string>; onChange: (hidden: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const hideable = columns.filter((c) => c.hideable !== false);
  const shown = hideable.filter((c) => !hidden.has(c.id));

  useDismiss(open, setOpen, root);

  return (
    <div className="column-picker" ref={root}>
      <button type="button" className="btn btn-secondary btn-small" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((o) => !o)}>
        Columns{hidden.size > 0 ? ` (${shown.length}/${hideable.length})` : ''}
      </button>
      {open && (
        <fieldset className="column-picker-menu" id={menuId}>
          <legend className="sr-only">Columns shown</legend>
          {hideable.map((column) => {
            const visible = !hidden.has(column.id);
            return (
              <label key={column.id} className="column-picker-option">
                <input
                  type="checkbox"
                  checked={visible}
                  disabled={visible && shown.length === 1}
                  onChange={(event) => onChange(event.target.checked ? [...hidden].filter((id) => id !== column.id) : [...hidden, column.id])}
                />
                {column.header}
              </label>
            );
          })}
        </fieldset>
      )}
    </div>
  );
}

/**
 * Selecting rows (or every row matching the filters) and acting on them in one go: one
 * confirmation, progress while it runs, then what was done, with Undo where the action can be
 * undone, and each row that failed with the server's reason.
 */
import { useCallback, useState } from 'react';
import type { ListParams } from '@core/jsonapi';
import type { ListResult } from '@core/api/client';
import { useNotify } from '../../state/notices';
import { useConfirm } from '../confirm/ConfirmProvider';
import type { Column } from './DataTable';
import { count, runBulk, type BulkAction, type BulkFailure, type BulkOptions } from './bulk';
import './list.css';

/** The largest page the API answers: rows matching the filters are read in pages this size. */
const READ_PAGE = 1000;

export interface Selection<T> {
  rows: Map<string, T>;
  /** Every row matching the list's filters, not only those ticked. */
  allMatching: boolean;
}

export function useSelection<T>() {
  const [selection, setSelection] = useState<Selection<T>>({ rows: new Map(), allMatching: false });
  const clear = useCallback(() => setSelection((s) => (s.rows.size === 0 && !s.allMatching ? s : { rows: new Map(), allMatching: false })), []);
  return {
    selection,
    clear,
    set: setSelection,
    toggle: (key: string, row: T, on: boolean) =>
      setSelection((s) => {
        const rows = new Map(s.rows);
        if (on) rows.set(key, row);
        else rows.delete(key);
        return { rows, allMatching: false };
      }),
    togglePage: (page: readonly [string, T][], on: boolean) =>
      setSelection((s) => {
        const rows = new Map(s.rows);
        for (const [key, row] of page) {
          if (on) rows.set(key, row);
          else rows.delete(key);
        }
        return { rows, allMatching: false };
      }),
  };
}

export type SelectionState<T> = ReturnType<typeof useSelection<T>>;

/** The first column: a box per row and one for the whole page. */
export function selectionColumn<T>(state: SelectionState<T>, page: readonly T[], rowKey: (row: T) => string, label: (row: T) => string): Column<T> {
  const { selection } = state;
  const keys = page.map((row) => [rowKey(row), row] as [string, T]);
  const all = keys.length > 0 && (selection.allMatching || keys.every(([key]) => selection.rows.has(key)));
  return {
    id: 'select',
    header: 'Select',
    hideable: false,
    exportFields: [],
    className: 'col-select',
    headerContent: (
      <input
        type="checkbox"
        aria-label="Select all rows on this page"
        checked={all}
        disabled={keys.length === 0}
        onChange={(event) => state.togglePage(keys, event.target.checked)}
      />
    ),
    cell: (row) => (
      <input
        type="checkbox"
        aria-label={`Select ${label(row)}`}
        checked={selection.allMatching || selection.rows.has(rowKey(row))}
        onChange={(event) => state.toggle(rowKey(row), row, event.target.checked)}
      />
    ),
  };
}

interface Report<T> {
  action: BulkAction<T>;
  done: number;
  skipped: number;
  failed: BulkFailure<T>[];
}

export function BulkBar<T>({
  options,
  state,
  page,
  total,
  params,
  load,
  rowKey,
  onDone,
}: {
  options: BulkOptions<T>;
  state: SelectionState<T>;
  page: readonly T[];
  total: number;
  /** The list's current parameters, to read every matching row. */
  params: ListParams;
  load: (params: ListParams) => Promise<ListResult<T>>;
  rowKey: (row: T) => string;
  onDone: () => void;
}) {
  const confirm = useConfirm();
  const notify = useNotify();
  const [progress, setProgress] = useState<{ label: string; finished: number; of: number } | null>(null);
  const [report, setReport] = useState<Report<T> | null>(null);
  const { selection } = state;
  const selected = selection.allMatching ? total : selection.rows.size;
  const pageAllSelected = page.length > 0 && page.every((row) => selection.rows.has(rowKey(row)));

  const matchingRows = async (): Promise<T[]> => {
    const rows: T[] = [];
    for (let p = 1; ; p++) {
      const { items } = await load({ ...params, page: p, limit: READ_PAGE });
      rows.push(...items);
      if (items.length < READ_PAGE) return rows;
    }
  };

  const perform = async (action: BulkAction<T>) => {
    const what = count(selected, options.noun);
    const ok = await confirm({
      title: `${action.label} ${what}?`,
      message: action.danger
        ? `Are you sure you want to ${action.label.toLowerCase()} these ${what}? This cannot be undone.`
        : `${action.label} the ${what} selected?`,
      confirmLabel: action.label,
      danger: action.danger,
    });
    if (!ok) return;
    setReport(null);
    setProgress({ label: action.label, finished: 0, of: selected });
    try {
      const rows = selection.allMatching ? await matchingRows() : [...selection.rows.values()];
      const todo = rows.filter((row) => !action.skip?.(row));
      setProgress({ label: action.label, finished: 0, of: todo.length });
      const outcome = await runBulk(todo, action.run, (finished) => setProgress({ label: action.label, finished, of: todo.length }));
      setReport({ action, done: outcome.done.length, skipped: rows.length - todo.length, failed: outcome.failed });
      // The rows that failed stay selected, to try again or look at.
      state.set({ rows: new Map(outcome.failed.map((f) => [rowKey(f.row), f.row])), allMatching: false });
      if (outcome.done.length > 0) {
        const undo = action.undo;
        notify('success', `${count(outcome.done.length, options.noun)} ${action.done}.`, {
          action: undo && {
            label: 'Undo',
            run: () =>
              void runBulk(outcome.done, undo).then(({ failed }) => {
                setReport(null);
                onDone();
                if (failed.length === 0) notify('success', `Undone: ${count(outcome.done.length, options.noun)} back as they were.`);
                else notify('error', `Could not undo for ${failed.map((f) => options.label(f.row)).join(', ')}.`);
              }),
          },
        });
      }
    } catch {
      notify('error', `Could not read the ${options.noun[1]} to ${action.label.toLowerCase()}. Try again.`);
    } finally {
      setProgress(null);
      onDone();
    }
  };

  if (selected === 0 && !report && !progress) return null;
  return (
    <div className="bulk-bar" role="region" aria-label="Selected rows">
      {selected > 0 && (
        <div className="bulk-bar-row">
          <span className="bulk-count" aria-live="polite">
            {selection.allMatching ? `All ${count(total, options.noun)} matching selected` : `${count(selected, options.noun)} selected`}
          </span>
          {pageAllSelected && !selection.allMatching && total > selection.rows.size && (
            <button type="button" className="btn-link" onClick={() => state.set({ rows: new Map(), allMatching: true })}>
              Select all {total} matching
            </button>
          )}
          <div className="bulk-actions">
            {options.actions.map((action) => (
              <button
                key={action.id}
                type="button"
                className={action.danger ? 'btn btn-small btn-danger-outline' : 'btn btn-small btn-secondary'}
                disabled={progress !== null}
                onClick={() => void perform(action)}
              >
                {action.label}
              </button>
            ))}
            <button type="button" className="btn-link" disabled={progress !== null} onClick={state.clear}>
              Clear selection
            </button>
          </div>
        </div>
      )}
      {progress && (
        <p className="bulk-progress" role="status">
          <span className="spinner spinner-small" aria-hidden="true" /> {progress.label}: {progress.finished} of {progress.of}…
        </p>
      )}
      {report && (
        <div className={report.failed.length > 0 ? 'bulk-report has-failures' : 'bulk-report'} role={report.failed.length > 0 ? 'alert' : 'status'}>
          <p>
            {count(report.done, options.noun)} {report.action.done}
            {report.skipped > 0 ? `, ${report.skipped} already ${report.action.done}` : ''}
            {report.failed.length > 0 ? `; ${report.failed.length} could not be ${report.action.done}:` : '.'}
          </p>
          {report.failed.length > 0 && (
            <ul>
              {report.failed.map((failure) => (
                <li key={rowKey(failure.row)}>
                  <strong>{options.label(failure.row)}</strong>: {failure.message}
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="btn-link" onClick={() => setReport(null)}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}

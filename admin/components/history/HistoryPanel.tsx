/**
 * A record's history from the audit trail, for Admins and Super Users: who changed what and
 * when, each changed field's old and new value, newest first, a page at a time. Closed until
 * asked for, so a view screen costs no extra request.
 */
import { useId, useState } from 'react';
import { useAtomValue } from 'jotai';
import { auditEventsApi } from '@core/api/auditEvents';
import { ApiError } from '@core/api/client';
import type { AuditEvent } from '@core/model/auditEvent';
import { hasRole } from '@core/model/user';
import { useAsync } from '../../hooks/useAsync';
import { currentUserAtom } from '../../state/auth';
import { useApi } from '../../state/services';
import { formatDate, formatDateTime, inWords } from '../format';
import { Pagination } from '../list/Pagination';
import './history.css';

export const HISTORY_PAGE_SIZE = 10;
const LONG_VALUE = 160;

const ACTIONS: Record<string, string> = { create: 'Created', update: 'Changed', delete: 'Deleted', export: 'Exported' };

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** How a stored value reads: a dash for nothing, Yes/No, times in local time, text as is, lists and objects briefly. */
export function historyValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return formatDateTime(value) || value;
  // A day is the same day everywhere: read at noon UTC so no time zone moves it.
  if (typeof value === 'string' && ISO_DATE.test(value)) return formatDate(`${value}T12:00:00Z`) || value;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.length ? value.join(', ') : '—';
  const text = JSON.stringify(value);
  return text.length > LONG_VALUE ? `${text.slice(0, LONG_VALUE)}…` : text;
}

/** A field's name as staff read it: the screen's label when it has one, else its words ('piName' → 'Pi name'). */
export function historyLabel(field: string, labels: Readonly<Record<string, string>> = {}): string {
  return Object.hasOwn(labels, field) ? labels[field]! : inWords(field);
}

function EventRow({ event, labels }: { event: AuditEvent; labels?: Readonly<Record<string, string>> }) {
  const changes = Object.entries(event.changes ?? {});
  return (
    <li className="history-event">
      <p className="history-head">
        <strong>{ACTIONS[event.action] ?? event.action}</strong> by {event.actorUsername ?? 'the system'}{' '}
        <time dateTime={event.occurredAt}>{formatDateTime(event.occurredAt)}</time>
      </p>
      {changes.length > 0 && (
        <dl className="history-changes">
          {changes.map(([field, change]) => (
            <div key={field}>
              <dt>{historyLabel(field, labels)}</dt>
              <dd>
                {event.action === 'create' ? (
                  historyValue(change.new)
                ) : event.action === 'delete' ? (
                  historyValue(change.old)
                ) : (
                  <>
                    <span className="history-old">{historyValue(change.old)}</span> <span aria-label="changed to">→</span> {historyValue(change.new)}
                  </>
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

function HistoryList({ entity, entityId, labels }: HistoryProps) {
  const api = useApi(auditEventsApi);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(HISTORY_PAGE_SIZE);
  const state = useAsync(() => api.history(entity, entityId, { page, limit }), [api, entity, entityId, page, limit]);
  if (state.error) {
    return (
      <div className="form-errors" role="alert">
        {state.error instanceof ApiError ? state.error.message : 'Could not load the history'}{' '}
        <button type="button" className="btn-link" onClick={state.reload}>
          Try again
        </button>
      </div>
    );
  }
  const result = state.data;
  return (
    <div aria-busy={state.loading || undefined}>
      {!result ? (
        <p className="muted">Loading…</p>
      ) : result.items.length === 0 ? (
        <p className="muted">No changes recorded yet.</p>
      ) : (
        <ol className="history-list">
          {result.items.map((event) => (
            <EventRow key={event.id} event={event} labels={labels} />
          ))}
        </ol>
      )}
      {result && result.total > HISTORY_PAGE_SIZE && (
        <Pagination
          page={page}
          limit={limit}
          total={result.total}
          onPage={setPage}
          onLimit={(n) => {
            setLimit(n);
            setPage(1);
          }}
          pageSizes={[10, 20, 50]}
        />
      )}
    </div>
  );
}

interface HistoryProps {
  /** The record's API path (the audit trail's entity), e.g. 'sponsors' or 'o-forms/o-forms'. */
  entity: string;
  entityId: string;
  /** The screen's labels by field name, so the history names fields as the screen does. */
  labels?: Readonly<Record<string, string>>;
}

export function HistoryPanel({ entity, entityId, labels }: HistoryProps) {
  const user = useAtomValue(currentUserAtom);
  const [open, setOpen] = useState(false);
  const regionId = useId();
  if (!hasRole(user, 'Admin', 'Super User')) return null;
  return (
    <section className="panel history-panel" id="history" aria-labelledby={`${regionId}-title`}>
      <div className="panel-heading">
        <h2 id={`${regionId}-title`}>History</h2>
        <button type="button" className="btn btn-small btn-secondary" aria-expanded={open} aria-controls={regionId} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide history' : 'Show history'}
        </button>
      </div>
      <div id={regionId} hidden={!open}>
        {open && <HistoryList entity={entity} entityId={entityId} labels={labels} />}
      </div>
    </section>
  );
}

/**
 * RmsAuditsIndex (Super User): one row per attempt to push a participant's contact to its
 * record system, newest first, with what the record system answered (expandable), and Resend
 * to push a contact again — asked first, shown in progress, its outcome reported.
 */
import { useState } from 'react';
import { ApiError } from '../../../core/api/client';
import { rmsAuditsApi } from '../../../core/api/rmsAudits';
import { RMS_AUDIT_DEFAULT_SORT, RMS_AUDIT_SORTS, type RmsAudit } from '../../../core/model/rmsAudit';
import { useConfirm } from '../../components/confirm/ConfirmProvider';
import { formatDateTime } from '../../components/format';
import type { Column } from '../../components/list/DataTable';
import { ListView } from '../../components/list/ListView';
import { useResourceList } from '../../components/list/useResourceList';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';

export const RESEND_CONFIRMATION = (contactId: number) => `Send contact ${contactId} to the record system again?`;
export const RESEND_FAILED = 'Could not resend the contact';
export const NO_RESPONSE_BODY = 'The record system sent no body.';

function Outcome({ audit }: { audit: RmsAudit }) {
  return (
    <span className={audit.succeeded ? 'badge badge-active' : 'badge badge-failed'}>
      {audit.succeeded ? 'Succeeded' : 'Failed'}
      {audit.attempt > 1 ? ` (attempt ${audit.attempt})` : ''}
    </span>
  );
}

function Response({ audit }: { audit: RmsAudit }) {
  return (
    <details className="rms-response">
      <summary>{audit.responseMessage || 'No message'}</summary>
      <pre aria-label={`Response body of audit ${audit.id}`}>{audit.responseBody || NO_RESPONSE_BODY}</pre>
    </details>
  );
}

export default function RmsAuditsIndex() {
  const api = useApi(rmsAuditsApi);
  const confirm = useConfirm();
  const notify = useNotify();
  const list = useResourceList({ load: api.list, defaultSort: RMS_AUDIT_DEFAULT_SORT, sortable: RMS_AUDIT_SORTS });
  // Contacts being resent now: their buttons wait, and say so.
  const [resending, setResending] = useState<ReadonlySet<number>>(new Set());

  useTopBar({ search: { ...list.search, placeholder: 'Search provider or message' } });

  const resend = async (contactId: number) => {
    const confirmed = await confirm({ title: 'Resend to the record system', message: RESEND_CONFIRMATION(contactId), confirmLabel: 'Resend' });
    if (!confirmed) return;
    setResending((current) => new Set(current).add(contactId));
    try {
      const audit = await api.resend(contactId);
      notify(audit.succeeded ? 'success' : 'error', `Contact ${contactId}: ${audit.responseMessage || (audit.succeeded ? 'sent' : 'not sent')}`);
      list.reload();
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : RESEND_FAILED);
    } finally {
      setResending((current) => {
        const next = new Set(current);
        next.delete(contactId);
        return next;
      });
    }
  };

  const columns: Column<RmsAudit>[] = [
    { id: 'created', header: 'Created', sortField: 'created', cell: (a) => formatDateTime(a.created) },
    { id: 'contactId', header: 'Contact', sortField: 'contactId', cell: (a) => a.contactId },
    {
      id: 'provider',
      header: 'Record system',
      sortField: 'rmsProviderName',
      cell: (a) => (a.rmsProviders?.kind ? `${a.rmsProviderName} (${a.rmsProviders.kind})` : a.rmsProviderName),
    },
    { id: 'outcome', header: 'Outcome', sortField: 'succeeded', cell: (a) => <Outcome audit={a} /> },
    { id: 'response', header: 'Response', cell: (a) => <Response audit={a} /> },
    {
      id: 'actions',
      header: 'Actions',
      className: 'col-actions',
      cell: (a) => {
        const busy = resending.has(a.contactId);
        return (
          <button
            type="button"
            className="btn btn-small btn-secondary"
            disabled={busy}
            aria-busy={busy || undefined}
            aria-label={`Resend contact ${a.contactId}`}
            onClick={() => void resend(a.contactId)}
          >
            {busy ? 'Resending…' : 'Resend'}
          </button>
        );
      },
    },
  ];

  return <ListView list={list} columns={columns} caption="RMS Audits" emptyMessage="No record-system audits yet." />;
}

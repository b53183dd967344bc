/**
 * RmsAuditsIndex (Super User): one row per attempt to deliver a participant's contact to its
 * record system, newest first, with what the record system answered (expandable) and where the
 * contact's delivery stands now (the next attempt's time while retrying). Filters (status,
 * record system, engagement, dates) live in the URL. Resend is offered where delivery failed;
 * sending a delivered contact again is a separate action whose confirmation says the receiver
 * will see it twice. "Resend undelivered" re-queues every undelivered contact the filters show.
 * A duplicate referral (never sent) shows as such, without Resend.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { pathTo } from '../../routing/routes';
import { ApiError } from '@core/api/client';
import { rmsAuditsApi } from '@core/api/rmsAudits';
import { rmsProvidersApi } from '@core/api/rmsProviders';
import { RMS_DELIVERY_STATUSES, type RmsAudit, type RmsDeliveryStatus } from '@core/model/rmsAudit';
import { useConfirm } from '../../components/confirm/ConfirmProvider';
import { ConsentProof } from '../../components/ConsentProof';
import { formatDateTime } from '../../components/format';
import type { Column } from '../../components/list/DataTable';
import { ListView } from '../../components/list/ListView';
import { dateRangeFilters, engagementFilter, labelledFilter, selectFilter } from '../../components/list/filters';
import { buttonsColumn } from '../../components/list/columns';
import { ResendButton } from '../../components/list/ResendButton';
import { useRowCalls } from '../../components/list/useRowCalls';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useOptions } from '../../hooks/useOptions';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import './rms-audits.css';
import { RMS_PROVIDER_OPTION_PARAMS } from '../../hooks/optionCalls';
import { useEngagementOptions } from '../../hooks/useEngagementOptions';
import { RMS_AUDIT_FILTERS, RMS_AUDIT_LIST } from './listCalls';

export const RESEND_CONFIRMATION = (contactId: number) => `Send contact ${contactId} to the record system again?`;
export const SEND_AGAIN_CONFIRMATION = (contactId: number) =>
  `The record system already accepted contact ${contactId}. Sending it again means the receiver will see it twice (with the same referral id). Send it again?`;
export const BULK_CONFIRMATION = 'Send every undelivered contact these filters show to its record system again?';
export const RESEND_FAILED = 'Could not resend the contact';
export const NO_RESPONSE_BODY = 'The record system sent no body.';

export const STATUS_LABELS: Record<RmsDeliveryStatus, string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  undelivered: 'Undelivered',
};

/** How often the audits read themselves again. */
export const AUDITS_REFRESH_MS = 10_000;
type FilterName = (typeof RMS_AUDIT_FILTERS)[number];

function Outcome({ audit }: { audit: RmsAudit }) {
  // A duplicate has no attempt: it is kept and never sent.
  if (audit.duplicateOf) return <span className="badge badge-duplicate">Duplicate of contact {audit.duplicateOf}</span>;
  return (
    <span className={audit.succeeded ? 'badge badge-active' : 'badge badge-failed'}>
      {audit.succeeded ? 'Succeeded' : 'Failed'}
      {audit.attempt > 1 ? ` (attempt ${audit.attempt})` : ''}
    </span>
  );
}

function Delivery({ audit }: { audit: RmsAudit }) {
  if (!audit.deliveryStatus) return null;
  const label = STATUS_LABELS[audit.deliveryStatus];
  return (
    <span>
      <span className={`badge badge-delivery-${audit.deliveryStatus}`}>{label}</span>
      {audit.nextAttemptAt && <span className="delivery-next"> next attempt {formatDateTime(audit.nextAttemptAt)}</span>}
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

/** Where the contact came from: the campaign parameters and the channel's hidden fields of its run, as name = value. */
export function Attribution({ audit }: { audit: RmsAudit }) {
  const pairs = [...Object.entries(audit.utm ?? {}), ...Object.entries(audit.hiddenFields ?? {})];
  if (pairs.length === 0) return null;
  return (
    <dl className="attribution" aria-label={`Attribution of contact ${audit.contactId}`}>
      {pairs.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt> <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The contact's consent proof: when, language and survey version, with the text as shown and its hash to expand. */
function Consent({ audit }: { audit: RmsAudit }) {
  if (!audit.consentedAt) return null;
  const summary = `${formatDateTime(audit.consentedAt)} · ${audit.consentLanguage}${audit.consentSurveyVersion === null ? '' : ` · survey v${audit.consentSurveyVersion}`}`;
  if (audit.consentText === null) return <span>{summary}</span>;
  return <ConsentProof summary={summary} text={audit.consentText} sha256={audit.consentTextSha256} textLabel={`Consent text of contact ${audit.contactId}`} />;
}

export default function RmsAuditsIndex() {
  const api = useApi(rmsAuditsApi);
  const providers = useApi(rmsProvidersApi);
  const confirm = useConfirm();
  const notify = useNotify();
  const list = useApiResourceList(api, RMS_AUDIT_LIST);
  const active = list.query.filters as Partial<Record<FilterName, string>>;
  // Reads itself again like the referral queue, so a retry made by the worker shows without a reload.
  const { reload } = list;
  useEffect(() => {
    const timer = setInterval(reload, AUDITS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  // Contacts being resent now: their buttons wait, and say so.
  const resending = useRowCalls<number>();
  const [bulkBusy, setBulkBusy] = useState(false);

  const providerOptions = useOptions(
    async () => (await providers.list(RMS_PROVIDER_OPTION_PARAMS)).items.map((p) => ({ value: p.id, label: p.name })),
    [providers],
    'Could not load the record systems.',
  );
  const engagementOptions = useEngagementOptions();

  const resendUndelivered = async () => {
    if (!(await confirm({ title: 'Resend undelivered', message: BULK_CONFIRMATION, confirmLabel: 'Resend' }))) return;
    setBulkBusy(true);
    try {
      const { status: _status, ...rest } = active;
      const queued = await api.resendUndelivered({ ...rest, ...(list.query.searchQuery.trim() ? { searchQuery: list.query.searchQuery.trim() } : {}) });
      notify('success', queued === 0 ? 'No undelivered contact to resend.' : `${queued} undelivered contact${queued === 1 ? '' : 's'} queued for delivery.`);
      list.reload();
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : RESEND_FAILED);
    } finally {
      setBulkBusy(false);
    }
  };

  useTopBar({
    search: { ...list.search, placeholder: 'Search provider or message' },
    buttons: [{ label: bulkBusy ? 'Resending…' : 'Resend undelivered', onClick: () => void resendUndelivered(), busy: bulkBusy }],
  });

  const resend = async (audit: RmsAudit) => {
    const { contactId } = audit;
    const again = audit.deliveryStatus === 'delivered';
    const confirmed = await confirm(
      again
        ? { title: 'Send a delivered contact again', message: SEND_AGAIN_CONFIRMATION(contactId), confirmLabel: 'Send again', danger: true }
        : { title: 'Resend to the record system', message: RESEND_CONFIRMATION(contactId), confirmLabel: 'Resend' },
    );
    if (!confirmed) return;
    await resending.run(
      contactId,
      async () => {
        const result = await api.resend(contactId, { again });
        notify(result.succeeded ? 'success' : 'error', `Contact ${contactId}: ${result.responseMessage || (result.succeeded ? 'sent' : 'not sent')}`);
        list.reload();
      },
      RESEND_FAILED,
    );
  };

  const columns: Column<RmsAudit>[] = [
    { id: 'created', header: 'Created', sortField: 'created', cell: (a) => formatDateTime(a.created) },
    {
      id: 'contactId',
      header: 'Contact',
      sortField: 'contactId',
      exportFields: ['contactId', 'referralRecordId', 'possibleRetake'],
      // Named by its referral (the queue's view), not by the contact's number alone.
      cell: (a) => (
        <>
          {a.referralRecordId ? <Link to={pathTo('ReferralsView', { id: a.referralRecordId })}>Referral {a.referralRecordId}</Link> : `Contact ${a.contactId}`}
          {a.possibleRetake ? (
            <>
              {' '}
              <span className="badge badge-duplicate" title="Started from the same address and channel as a run finished within the channel's retake window">
                Possible retake
              </span>
            </>
          ) : null}
        </>
      ),
    },
    {
      id: 'provider',
      header: 'Record system',
      sortField: 'rmsProviderName',
      cell: (a) => (a.rmsProviders?.kind ? `${a.rmsProviderName} (${a.rmsProviders.kind})` : a.rmsProviderName),
    },
    { id: 'outcome', header: 'Outcome', sortField: 'succeeded', exportFields: ['succeeded', 'attempt', 'duplicateOf'], cell: (a) => <Outcome audit={a} /> },
    { id: 'delivery', header: 'Delivery', exportFields: ['deliveryStatus', 'nextAttemptAt', 'deliveredAt'], cell: (a) => <Delivery audit={a} /> },
    {
      id: 'consent',
      header: 'Consent',
      exportFields: ['consentedAt', 'consentLanguage', 'consentSurveyVersion', 'consentTextSha256', 'consentText'],
      cell: (a) => <Consent audit={a} />,
    },
    { id: 'attribution', header: 'Attribution', exportFields: ['utm', 'hiddenFields'], cell: (a) => <Attribution audit={a} /> },
    { id: 'response', header: 'Response', exportFields: ['responseMessage'], cell: (a) => <Response audit={a} /> },
    buttonsColumn('Actions', (a) => {
      if (a.duplicateOf) return null;
      const action = a.deliveryStatus === 'delivered' ? 'Send again' : 'Resend';
      return (
        <ResendButton label={`${action} contact ${a.contactId}`} waiting={resending.waiting.has(a.contactId)} onClick={() => void resend(a)}>
          {action}
        </ResendButton>
      );
    }),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="RMS Audits"
      emptyMessage="No record-system audits match."
      filters={[
        labelledFilter('status', 'Status', RMS_DELIVERY_STATUSES, STATUS_LABELS),
        selectFilter('rmsProviderId', 'Record system', providerOptions),
        engagementFilter(engagementOptions),
        ...dateRangeFilters('From', 'To'),
      ]}
    />
  );
}

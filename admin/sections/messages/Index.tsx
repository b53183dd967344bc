/**
 * MessagesIndex (Admin, Super User): the message outbox, newest first: kind, recipient, subject,
 * status with the last error (a message waiting says "not sent: no mail server configured"),
 * attempts and when it was sent, by e-mail or SMS. Filters (status, kind, channel, engagement) live in the URL. Resend is
 * offered for a message not sent; a participant's address is shown only on Reveal, which the
 * server records in the audit trail. No body is ever shown.
 */
import { useState } from 'react';
import { ApiError } from '@core/api/client';
import { messagesApi } from '@core/api/messages';
import {
  MESSAGE_CHANNEL_LABELS,
  MESSAGE_CHANNELS,
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
  type Message,
  type MessageStatus,
} from '@core/model/message';
import { formatDateTime } from '../../components/format';
import type { Column } from '../../components/list/DataTable';
import { buttonsColumn, fieldColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { engagementFilter, labelledFilter } from '../../components/list/filters';
import { ResendButton } from '../../components/list/ResendButton';
import { useRowCalls } from '../../components/list/useRowCalls';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useEngagementOptions } from '../../hooks/useEngagementOptions';
import { MESSAGE_LIST } from './listCalls';

export const STATUS_LABELS: Record<MessageStatus, string> = {
  pending: 'Pending',
  waiting: 'Waiting',
  retrying: 'Retrying',
  sent: 'Sent',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const BADGE: Record<MessageStatus, string> = {
  pending: 'badge-delivery-pending',
  waiting: 'badge-delivery-pending',
  retrying: 'badge-delivery-retrying',
  sent: 'badge-active',
  failed: 'badge-failed',
  cancelled: 'badge-duplicate',
};

function Recipient({ message, shown, onReveal }: { message: Message; shown: string | undefined; onReveal: () => void }) {
  if (message.audience === 'staff') return <span>{message.recipient}</span>;
  if (shown) return <span>{shown}</span>;
  return (
    <span>
      Participant{' '}
      <button type="button" className="btn btn-small btn-secondary" aria-label={`Reveal the address of message ${message.id}`} onClick={onReveal}>
        Reveal
      </button>
    </span>
  );
}

export default function MessagesIndex() {
  const api = useApi(messagesApi);
  const notify = useNotify();
  const list = useApiResourceList(api, MESSAGE_LIST);
  const [revealed, setRevealed] = useState<Readonly<Record<string, string>>>({});
  const resending = useRowCalls<string>();
  useTopBar({});

  const engagementOptions = useEngagementOptions();

  const reveal = async (message: Message) => {
    try {
      const to = await api.reveal(message.id);
      setRevealed((current) => ({ ...current, [message.id]: to }));
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : 'Could not reveal the address');
    }
  };

  const resend = (message: Message) =>
    resending.run(
      message.id,
      async () => {
        const doc = await api.resend(message.id);
        const { status, lastError } = doc.data.attributes;
        notify(status === 'sent' ? 'success' : 'error', `Message ${message.id}: ${status === 'sent' ? 'sent' : (lastError ?? status)}`);
        list.reload();
      },
      'Could not resend the message',
    );

  const columns: Column<Message>[] = [
    { id: 'created', header: 'Created', sortField: 'created', cell: (m) => formatDateTime(m.created) },
    { id: 'kind', header: 'Kind', sortField: 'kind', cell: (m) => MESSAGE_KIND_LABELS[m.kind] },
    { id: 'channel', header: 'Channel', cell: (m) => MESSAGE_CHANNEL_LABELS[m.channel] },
    {
      id: 'recipient',
      header: 'To',
      exportFields: ['audience', 'recipient'],
      cell: (m) => <Recipient message={m} shown={revealed[m.id]} onReveal={() => void reveal(m)} />,
    },
    { id: 'subject', header: 'Subject', cell: (m) => m.subject },
    {
      id: 'status',
      header: 'Status',
      sortField: 'status',
      exportFields: ['status', 'lastError', 'nextAttemptAt'],
      cell: (m) => (
        <span>
          <span className={`badge ${BADGE[m.status]}`}>{STATUS_LABELS[m.status]}</span>
          {m.lastError ? <span className="delivery-next"> {m.lastError}</span> : null}
          {m.nextAttemptAt && m.status === 'retrying' ? <span className="delivery-next"> next attempt {formatDateTime(m.nextAttemptAt)}</span> : null}
        </span>
      ),
    },
    fieldColumn('attempts', 'Attempts', 'plain'),
    { id: 'sentAt', header: 'Sent', sortField: 'sentAt', cell: (m) => (m.sentAt ? formatDateTime(m.sentAt) : '—') },
    buttonsColumn('Actions', (m) => {
      if (m.status === 'sent' || m.status === 'cancelled') return null;
      return (
        <ResendButton label={`Resend message ${m.id}`} waiting={resending.waiting.has(m.id)} onClick={() => void resend(m)}>
          Resend
        </ResendButton>
      );
    }),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Messages"
      emptyMessage="No messages match."
      filters={[
        labelledFilter('status', 'Status', MESSAGE_STATUSES, STATUS_LABELS),
        labelledFilter('kind', 'Kind', MESSAGE_KINDS, MESSAGE_KIND_LABELS),
        labelledFilter('channel', 'Channel', MESSAGE_CHANNELS, MESSAGE_CHANNEL_LABELS),
        engagementFilter(engagementOptions),
      ]}
    />
  );
}

/**
 * ReferralsView: one referral and its timeline — the participant's submission and qualification,
 * when the referral was made, each delivery attempt to the record system, every status change
 * and contact attempt. Initials only until staff reveal the contact values (an audited click).
 * The same work as the queue's row (move, log a call), and it reads itself again every few
 * seconds like the queue.
 */
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { ApiError } from '@core/api/client';
import { referralsApi } from '@core/api/referrals';
import { REFERRAL_STATUS_LABELS, type Referral, type ReferralStatus, type ReferralTimelineEntry } from '@core/model/referral';
import { formatDateTime } from '../../components/format';
import { RecordLoader } from '../../components/RecordLoader';
import { ViewFields } from '../../components/ViewFields';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { REFRESH_MS, RESULT_LABELS, Work } from './Index';

const statusLabel = (s: string | null) => (s && s in REFERRAL_STATUS_LABELS ? REFERRAL_STATUS_LABELS[s as ReferralStatus] : (s ?? ''));

function describeEntry(e: ReferralTimelineEntry): string {
  switch (e.kind) {
    case 'submitted':
      return 'Survey started';
    case 'qualified':
      return 'Qualified';
    case 'made':
      return 'Referral made';
    case 'delivery':
      return `Delivery to ${e.actorName ?? 'the record system'} (${e.channel ?? ''}): ${e.result === 'delivered' ? 'delivered' : 'failed'}`;
    case 'attempt':
      return `Contact attempt by ${e.channel ?? ''}: ${e.result && e.result in RESULT_LABELS ? RESULT_LABELS[e.result as keyof typeof RESULT_LABELS] : (e.result ?? '')}`;
    case 'status':
      return `${statusLabel(e.fromStatus)} → ${statusLabel(e.toStatus)}${e.reasonName ? ` (${e.reasonName})` : ''}`;
  }
}

function Contact({ referral }: { referral: Referral }) {
  const api = useApi(referralsApi);
  const notify = useNotify();
  const [values, setValues] = useState<Record<string, unknown> | null>(null);
  if (values) {
    return (
      <dl className="referral-contact">
        {Object.entries(values).map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{String(value)}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <span>
      {referral.initials ?? '—'}{' '}
      <button
        type="button"
        className="btn btn-small btn-secondary"
        onClick={() =>
          void api
            .reveal(referral.id)
            .then((r) => setValues(r.values))
            .catch((error: unknown) => notify('error', error instanceof ApiError ? error.message : 'Could not reveal the contact.'))
        }
      >
        Reveal contact
      </button>
    </span>
  );
}

function ReferralDetails({ referral, timeline, reload }: { referral: Referral; timeline: ReferralTimelineEntry[]; reload: () => void }) {
  useTopBar({ objectTitle: `Referral ${referral.id}`, buttons: [{ label: 'Back', to: pathTo('ReferralsIndex') }] });
  return (
    <>
      <section className="panel">
        <ViewFields
          fields={[
            { label: 'Participant', value: <Contact referral={referral} /> },
            { label: 'Engagement', value: referral.engagementName },
            { label: 'Site', value: referral.siteName ?? '—' },
            { label: 'Status', value: <span className={`badge referral-${referral.status}`}>{REFERRAL_STATUS_LABELS[referral.status]}</span> },
            { label: 'Reason', value: referral.reasonName ? `${referral.reasonName}${referral.reasonNote ? ` — ${referral.reasonNote}` : ''}` : '—' },
            { label: 'Referred', value: formatDateTime(referral.created) },
            { label: 'First contact', value: referral.firstContactAt ? formatDateTime(referral.firstContactAt) : '—' },
            { label: 'Attempts', value: String(referral.attempts) },
            { label: 'Due', value: referral.due ? `${formatDateTime(referral.due)}${referral.overdue ? ' (overdue)' : ''}` : '—' },
            { label: 'Delivery', value: referral.deliveryStatus ?? '—' },
          ]}
        />
        <Work referral={referral} onDone={reload} />
      </section>
      <section className="panel" aria-labelledby="referral-timeline">
        <h2 id="referral-timeline">Timeline</h2>
        <ol className="referral-timeline">
          {timeline.map((e) => (
            <li key={e.id} data-kind={e.kind}>
              <time dateTime={e.occurredAt}>{formatDateTime(e.occurredAt)}</time> {describeEntry(e)}
              {e.kind !== 'delivery' && e.actorName ? <span className="muted"> — {e.actorName}</span> : null}
              {e.note ? <p className="referral-note">{e.note}</p> : null}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

export default function ReferralsView() {
  const { id = '' } = useParams();
  const api = useApi(referralsApi);
  const state = useAsync(async () => {
    const [referral, timeline] = await Promise.all([api.get(id), api.timeline(id)]);
    return { referral, timeline: timeline.items };
  }, [api, id]);
  const { reload } = state;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return (
    <RecordLoader state={state} resource="referral">
      {({ referral, timeline }) => <ReferralDetails referral={referral} timeline={timeline} reload={reload} />}
    </RecordLoader>
  );
}

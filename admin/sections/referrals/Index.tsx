/**
 * ReferralsIndex (the work queue, for recruiters and Site Coordinators): the referrals the server
 * lets this user see, with the participant's initials only, status, due and ageing. Filters
 * (engagement, site, status, overdue, stale, dates) live in the URL. The list reads itself again every
 * few seconds, so a change made elsewhere shows without a reload. Each row moves the referral to
 * a status the ladder allows (asking for a reason where one is needed) or logs a contact attempt.
 */
import { useEffect, useState } from 'react';
import { referralsApi } from '@core/api/referrals';
import {
  CONTACT_RESULTS,
  REASONED_REFERRAL_STATUSES,
  REFERRAL_STATUSES,
  REFERRAL_STATUS_LABELS,
  type ContactResult,
  type Referral,
  type ReferralReason,
  type ReferralStatus,
} from '@core/model/referral';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../components/format';
import { pathTo } from '../../routing/routes';
import type { Column } from '../../components/list/DataTable';
import { buttonsColumn, fieldColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { flagFilter, dateRangeFilters, engagementFilter, labelledFilter, selectFilter } from '../../components/list/filters';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useAtomValue } from 'jotai';
import { siteLocationsApi } from '@core/api/siteLocations';
import { onlySiteCoordinator } from '../../access';
import { useOptions } from '../../hooks/useOptions';
import { currentUserAtom } from '../../state/auth';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useEngagementOptions } from '../../hooks/useEngagementOptions';
import { useBusyCall } from '../../hooks/useBusyCall';
import { REFERRAL_LIST, referralSiteParams } from './listCalls';
import { labelledOptions, SelectChoices } from '../../components/form/Select';

/** How often the queue reads itself again (the bound is 15 s). */
export const REFRESH_MS = 10_000;
const BULK_STATUSES = REFERRAL_STATUSES.filter((s) => s !== 'new' && !REASONED_REFERRAL_STATUSES.includes(s));
export const RESULT_LABELS: Record<ContactResult, string> = {
  reached: 'Reached',
  voicemail: 'Voicemail',
  'no-answer': 'No answer',
  'wrong-number': 'Wrong number',
  declined: 'Declined',
};

function Due({ referral }: { referral: Referral }) {
  if (!referral.due) return <span>—</span>;
  return (
    <span>
      {formatDateTime(referral.due)}
      {referral.overdue ? <span className="badge badge-failed"> Overdue</span> : null}
      {referral.stale ? <span className="badge badge-duplicate"> Stale</span> : null}
    </span>
  );
}

/** One row's actions: move to an allowed status (with a reason where needed), or log an attempt. */
export function Work({ referral, onDone }: { referral: Referral; onDone: () => void }) {
  const api = useApi(referralsApi);
  const notify = useNotify();
  const [to, setTo] = useState<ReferralStatus | ''>('');
  const [reasons, setReasons] = useState<ReferralReason[]>([]);
  const [reasonId, setReasonId] = useState('');
  const [result, setResult] = useState<ContactResult>('no-answer');
  const { busy, run } = useBusyCall((message) => notify('error', message));
  const who = referral.initials ?? `referral ${referral.id}`;
  const needsReason = to !== '' && REASONED_REFERRAL_STATUSES.includes(to);

  useEffect(() => {
    if (!needsReason) return;
    let live = true;
    void api.reasons(to).then((r) => live && setReasons(r.items.filter((x) => x.isActive)));
    return () => {
      live = false;
    };
  }, [api, to, needsReason]);

  const act = (action: () => Promise<unknown>, done: string) =>
    run(async () => {
      await action();
      notify('success', done);
      setTo('');
      setReasonId('');
      onDone();
    }, 'Could not save the change.');

  return (
    <div className="referral-work">
      {referral.allowedStatuses.length > 0 && (
        <>
          <label>
            <span className="visually-hidden">New status for {who}</span>
            <select value={to} onChange={(e) => setTo(e.target.value as ReferralStatus | '')} aria-label={`New status for ${who}`}>
              <SelectChoices options={labelledOptions(referral.allowedStatuses, REFERRAL_STATUS_LABELS)} emptyLabel="Move to…" />
            </select>
          </label>
          {needsReason && (
            <select value={reasonId} onChange={(e) => setReasonId(e.target.value)} aria-label={`Reason for ${who}`}>
              <SelectChoices options={reasons.map((r) => ({ value: String(r.id), label: r.name }))} emptyLabel="Reason…" />
            </select>
          )}
          <button
            type="button"
            className="btn btn-small btn-primary"
            disabled={busy || to === '' || (needsReason && reasonId === '')}
            onClick={() =>
              to !== '' &&
              void act(() => api.move(referral.id, { status: to, reasonId: reasonId ? Number(reasonId) : null }), `${who}: ${REFERRAL_STATUS_LABELS[to]}`)
            }
          >
            Move
          </button>
          <select value={result} onChange={(e) => setResult(e.target.value as ContactResult)} aria-label={`Attempt result for ${who}`}>
            <SelectChoices options={labelledOptions(CONTACT_RESULTS, RESULT_LABELS)} />
          </select>
          <button
            type="button"
            className="btn btn-small btn-secondary"
            disabled={busy}
            onClick={() => void act(() => api.logAttempt(referral.id, { channel: 'phone', result }), `${who}: call logged`)}
          >
            Log call
          </button>
        </>
      )}
    </div>
  );
}

export default function ReferralsIndex() {
  const api = useApi(referralsApi);
  const list = useApiResourceList(api, REFERRAL_LIST);
  // Recruiters narrow by engagement and site; a Site Coordinator's queue is their sites' already,
  // and the server opens them no engagement or site list to choose from.
  const user = useAtomValue(currentUserAtom);
  const coordinator = onlySiteCoordinator(user);
  const sites = useApi(siteLocationsApi);
  const engagementId = list.query.filters.engagementId;
  const engagementOptions = useEngagementOptions(!coordinator);
  const siteOptions = useOptions(
    async () =>
      coordinator
        ? []
        : (await sites.list(referralSiteParams(engagementId))).items.map((s) => ({
            value: String(s.id),
            label: s.siteId ? `${s.name} (${s.siteId})` : s.name,
          })),
    [sites, coordinator, engagementId],
    'Could not load the site locations.',
  );
  useTopBar({});
  const { reload } = list;

  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  const columns: Column<Referral>[] = [
    {
      id: 'initials',
      header: 'Participant',
      exportFields: ['initials'],
      cell: (r) => <Link to={pathTo('ReferralsView', { id: r.id })}>{r.initials ?? `Referral ${r.id}`}</Link>,
    },
    fieldColumn('engagementName', 'Engagement', 'plain'),
    { id: 'siteName', header: 'Site', sortField: 'siteName', cell: (r) => r.siteName ?? '—' },
    {
      id: 'status',
      header: 'Status',
      sortField: 'status',
      cell: (r) => <span className={`badge referral-${r.status}`}>{REFERRAL_STATUS_LABELS[r.status]}</span>,
    },
    { id: 'created', header: 'Referred', sortField: 'created', cell: (r) => formatDateTime(r.created) },
    { id: 'due', header: 'Due', sortField: 'due', exportFields: ['due', 'overdue', 'stale'], cell: (r) => <Due referral={r} /> },
    {
      id: 'lastAttemptAt',
      header: 'Last attempt',
      sortField: 'lastAttemptAt',
      exportFields: ['lastAttemptAt', 'attempts'],
      cell: (r) => (r.lastAttemptAt ? `${formatDateTime(r.lastAttemptAt)} (${r.attempts})` : '—'),
    },
    { id: 'deliveryStatus', header: 'Delivery', cell: (r) => r.deliveryStatus ?? '—' },
    buttonsColumn('Work', (r) => <Work referral={r} onDone={reload} />),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Referrals"
      emptyMessage="No referrals match."
      bulk={{
        noun: ['referral', 'referrals'],
        label: (r) => r.initials ?? `referral ${r.id}`,
        // Statuses that need no reason; closing needs one per referral, so it is done row by row.
        actions: BULK_STATUSES.map((status) => ({
          id: status,
          label: `Move to ${REFERRAL_STATUS_LABELS[status]}`,
          done: `moved to ${REFERRAL_STATUS_LABELS[status].toLowerCase()}`,
          run: (r: Referral) => api.move(r.id, { status }),
          skip: (r: Referral) => !r.allowedStatuses.includes(status),
        })),
      }}
      filters={[
        ...(coordinator ? [] : [engagementFilter(engagementOptions), selectFilter('siteLocationId', 'Site', siteOptions)]),
        labelledFilter('status', 'Status', REFERRAL_STATUSES, REFERRAL_STATUS_LABELS),
        flagFilter('overdue', 'Overdue', 'Overdue', 'Not overdue'),
        flagFilter('stale', 'Stale', 'Stale', 'Not stale'),
        ...dateRangeFilters('Referred from', 'Referred to', ['createdFrom', 'createdTo']),
      ]}
    />
  );
}

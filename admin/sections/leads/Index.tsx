/**
 * LeadsIndex: the contacts participants left at notQualified, noTrialSites and notActive, kept
 * for future contact (never referrals). What the server lets this user see (Admin and Super
 * User all; a User their sponsors' engagements'; a Site Coordinator those matched to their
 * sites): kind, engagement, screener, channel, language, ZIP and distance to the nearest site,
 * consent time, created. Filters live in the URL (engagementSiteLocationId too: the engagement
 * and site views link here for "leads within reach"); Export CSV carries no contact value.
 * Contact values show only on an explicit Reveal, which the server records in the audit trail.
 */
import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { ApiError } from '@core/api/client';
import { leadsApi } from '@core/api/leads';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { screenersApi } from '@core/api/screeners';
import { LEAD_KINDS, type Lead, type LeadKind } from '@core/model/lead';
import { hasRole } from '@core/model/user';
import { useConfirm } from '../../components/confirm/ConfirmProvider';
import { ConsentProof } from '../../components/ConsentProof';
import { formatDateTime } from '../../components/format';
import type { Column } from '../../components/list/DataTable';
import { buttonsColumn, fieldColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { dateRangeFilters, engagementFilter, labelledFilter, selectFilter } from '../../components/list/filters';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useOptions } from '../../hooks/useOptions';
import { currentUserAtom } from '../../state/auth';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { CHANNEL_OPTION_PARAMS, SCREENER_OPTION_PARAMS } from '../../hooks/optionCalls';
import { useEngagementOptions } from '../../hooks/useEngagementOptions';
import { useBusyCall } from '../../hooks/useBusyCall';
import { LEAD_LIST, readsLeadOptionLists } from './listCalls';

export const LEAD_KIND_LABELS: Record<LeadKind, string> = { notQualified: 'Not qualified', noTrialSites: 'No trial sites', notActive: 'Not active' };
export const ERASE_CONFIRMATION = (id: string) => `Erase lead ${id}? Its contact details and consent are deleted for good.`;

const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish' },
];

/** The lead's contact values, fetched (and audited) only when asked for. */
function Reveal({ lead }: { lead: Lead }) {
  const api = useApi(leadsApi);
  const notify = useNotify();
  const [values, setValues] = useState<Record<string, string | boolean> | null>(null);
  const { busy, run } = useBusyCall((message) => notify('error', message));
  if (values) {
    return (
      <dl className="attribution" aria-label={`Contact details of lead ${lead.id}`}>
        {Object.entries(values).map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt> <dd>{typeof value === 'boolean' ? (value ? 'Yes' : 'No') : value}</dd>
          </div>
        ))}
      </dl>
    );
  }
  const reveal = () => run(async () => setValues(await api.reveal(lead.id)), 'Could not reveal the contact details.');
  return (
    <button
      type="button"
      className="btn btn-small btn-secondary"
      disabled={busy}
      onClick={() => void reveal()}
      aria-label={`Reveal contact details of lead ${lead.id}`}
    >
      Reveal
    </button>
  );
}

/** The consent proof: when, with the text as shown and its hash to expand. */
function Consent({ lead }: { lead: Lead }) {
  return (
    <ConsentProof
      summary={formatDateTime(lead.consentedAt)}
      text={lead.consentText}
      sha256={lead.consentTextSha256}
      textLabel={`Consent text of lead ${lead.id}`}
    />
  );
}

export default function LeadsIndex() {
  const api = useApi(leadsApi);
  const screeners = useApi(screenersApi);
  const channels = useApi(mediaChannelsApi);
  const confirm = useConfirm();
  const notify = useNotify();
  const user = useAtomValue(currentUserAtom);
  const canErase = hasRole(user, 'Admin', 'Super User');
  const readsLists = readsLeadOptionLists(user);
  const list = useApiResourceList(api, LEAD_LIST);
  useTopBar({});

  const engagementOptions = useEngagementOptions(readsLists);
  const screenerOptions = useOptions(
    async () => (readsLists ? (await screeners.list(SCREENER_OPTION_PARAMS)).items.map((s) => ({ value: String(s.id), label: s.title })) : []),
    [screeners, readsLists],
    'Could not load the screeners.',
  );
  const channelOptions = useOptions(
    async () => (readsLists ? (await channels.list(CHANNEL_OPTION_PARAMS)).items.map((m) => ({ value: String(m.id), label: m.title })) : []),
    [channels, readsLists],
    'Could not load the media channels.',
  );
  const nameOf = (options: readonly { value: string; label: string }[], id: number | null) =>
    id === null ? '—' : (options.find((o) => o.value === String(id))?.label ?? `#${id}`);

  const erase = async (lead: Lead) => {
    if (!(await confirm({ title: 'Erase lead', message: ERASE_CONFIRMATION(lead.id), confirmLabel: 'Erase', danger: true }))) return;
    try {
      await api.erase(lead.id);
      notify('success', `Lead ${lead.id} erased.`);
      list.reload();
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : 'Could not erase the lead.');
    }
  };

  const columns: Column<Lead>[] = [
    { id: 'created', header: 'Created', sortField: 'created', cell: (l) => formatDateTime(l.created) },
    {
      id: 'kind',
      header: 'Kind',
      sortField: 'kind',
      exportFields: ['kind', 'duplicateOf'],
      cell: (l) => (
        <span>
          <span className="badge">{LEAD_KIND_LABELS[l.kind]}</span>
          {l.duplicateOf !== null && <span className="badge badge-duplicate"> Duplicate of lead {l.duplicateOf}</span>}
        </span>
      ),
    },
    {
      id: 'engagementIds',
      header: 'Engagement',
      exportFields: ['engagementIds'],
      cell: (l) => l.engagementIds.map((id) => nameOf(engagementOptions.options, id)).join(', ') || '—',
    },
    { id: 'screenerId', header: 'Screener', exportFields: ['screenerId'], cell: (l) => nameOf(screenerOptions.options, l.screenerId) },
    { id: 'mediaChannelId', header: 'Channel', exportFields: ['mediaChannelId'], cell: (l) => nameOf(channelOptions.options, l.mediaChannelId) },
    fieldColumn('language', 'Language', 'plain'),
    {
      id: 'zipCode',
      header: 'ZIP or place',
      exportFields: ['zipCode', 'country'],
      cell: (l) => (l.zipCode === null ? '—' : l.country ? `${l.zipCode} (${l.country})` : l.zipCode),
    },
    {
      id: 'nearestSiteMiles',
      header: 'Nearest site',
      sortField: 'nearestSiteMiles',
      cell: (l) => (l.nearestSiteMiles === null ? '—' : `${l.nearestSiteMiles} mi`),
    },
    {
      id: 'consentedAt',
      header: 'Consent',
      sortField: 'consentedAt',
      exportFields: ['consentedAt', 'consentText', 'consentTextSha256', 'surveyVersion'],
      cell: (l) => <Consent lead={l} />,
    },
    buttonsColumn('Contact', (l) => (
      <span>
        <Reveal lead={l} />
        {canErase && (
          <button type="button" className="btn btn-small btn-danger" onClick={() => void erase(l)} aria-label={`Erase lead ${l.id}`}>
            Erase
          </button>
        )}
      </span>
    )),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Leads"
      emptyMessage="No leads match."
      columnsKey="leads"
      filters={[
        labelledFilter('kind', 'Kind', LEAD_KINDS, LEAD_KIND_LABELS),
        engagementFilter(engagementOptions),
        selectFilter('screenerId', 'Screener', screenerOptions),
        selectFilter('mediaChannelId', 'Channel', channelOptions),
        selectFilter('language', 'Language', LANGUAGES),
        ...dateRangeFilters('Created from', 'Created to'),
      ]}
    />
  );
}

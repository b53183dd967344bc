import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { engagementSiteLocationsApi } from '@core/api/engagementSiteLocations';
import { engagementsApi } from '@core/api/engagements';
import { referralsApi } from '@core/api/referrals';
import { hasRole } from '@core/model/user';
import type { Engagement } from '@core/model/engagement';
import { formatDateTime } from '../../components/format';
import { DataTable } from '../../components/list/DataTable';
import { RecordLoader } from '../../components/RecordLoader';
import { FunnelPanel } from '../../components/funnel/FunnelPanel';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { LeadsWithinReach } from '../../components/LeadsWithinReach';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { displayValue, ViewFields } from '../../components/ViewFields';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useAtomValue } from 'jotai';
import { currentUserAtom } from '../../state/auth';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { EngagementFilesPanel } from './EngagementFilesPanel';
import { MessageSettingsPanel } from './MessageSettingsPanel';
import { ClinicalTrialsGovPanel } from './ClinicalTrialsGovPanel';
import { ENGAGEMENT_LABELS as L, formatDay } from './engagementValues';
import { useEngagement } from './useEngagement';
import { sitePreviewParams } from './viewCalls';

const names = (items?: { name: string }[]) => (items?.length ? items.map((i) => i.name).join(', ') : null);

function ReferralCountsPanel({ engagementId }: { engagementId: string }) {
  const api = useApi(referralsApi);
  const counts = useAsync(() => api.counts(engagementId), [api, engagementId]);
  return (
    <section className="panel" id="referrals" aria-labelledby="referrals-title">
      <h2 id="referrals-title">Referrals</h2>
      {counts.error ? (
        <p className="form-errors" role="alert">
          Could not load the referral counts.
        </p>
      ) : (
        <ViewFields
          fields={[
            { label: 'Total', value: counts.data?.total ?? '…' },
            { label: 'Screened', value: counts.data?.screened ?? '…' },
            { label: 'Randomized', value: counts.data?.randomized ?? '…' },
          ]}
        />
      )}
      {/* Leads are not referrals: the noTrialSites leads a site of this engagement opened within reach of. */}
      <LeadsWithinReach filters={{ engagementId }} leadsPath={pathTo('LeadsIndex')} />
    </section>
  );
}

function SitesPanel({ engagement }: { engagement: Engagement }) {
  const api = useApi(engagementSiteLocationsApi);
  const user = useAtomValue(currentUserAtom);
  const links = useAsync(() => api.list(sitePreviewParams(engagement.id)), [api, engagement.id]);
  const total = links.data?.total ?? 0;
  return (
    <section className="panel" id="sites" aria-labelledby="sites-title">
      <div className="panel-heading">
        <h2 id="sites-title">Site Locations{links.data ? ` (${total})` : ''}</h2>
        <div className="row-actions">
          <Link className="btn btn-small btn-secondary" to={pathTo('SiteAssociations', { engagementId: engagement.id })}>
            Manage Sites
          </Link>
          {hasRole(user, 'Admin', 'Super User') && (
            <Link className="btn btn-small btn-secondary" to={pathTo('SiteLocationsUpload', { engagementId: engagement.id })}>
              Upload Sites
            </Link>
          )}
        </div>
      </div>
      <DataTable
        caption="Linked site locations"
        rowKey={(l) => l.id}
        rows={links.data?.items ?? []}
        loading={links.loading}
        emptyMessage="No sites linked yet."
        columns={[
          { id: 'siteId', header: 'Site ID', cell: (l) => displayValue(l.siteId) },
          { id: 'name', header: 'Name', cell: (l) => l.siteName },
          { id: 'city', header: 'City', cell: (l) => displayValue([l.city, l.state].filter(Boolean).join(', ')) },
          { id: 'radius', header: 'Radius', cell: (l) => (l.radius === null ? `${engagement.radius} (engagement)` : String(l.radius)) },
          { id: 'active', header: 'Active', cell: (l) => <StatusBadge active={l.isActive} /> },
        ]}
      />
      {total > 10 && (
        <p className="muted">
          Showing 10 of {total}. <Link to={pathTo('SiteAssociations', { engagementId: engagement.id })}>See all</Link>
        </p>
      )}
    </section>
  );
}

function EngagementDetails({ engagement }: { engagement: Engagement }) {
  const api = useApi(engagementsApi);
  const navigate = useNavigate();
  const remove = useDeleteWithConfirm(api.remove, 'Engagement');
  const user = useAtomValue(currentUserAtom);
  // Raised by an import, so the sites panel reads the engagement's sites again.
  const [sitesVersion, setSitesVersion] = useState(0);

  useTopBar({
    objectTitle: engagement.name,
    breadcrumbs: [
      { label: 'Sponsors', to: pathTo('SponsorsIndex') },
      { label: engagement.sponsorName, to: pathTo('SponsorsView', { id: engagement.sponsorId }) },
      { label: engagement.name },
    ],
    buttons: [
      { label: 'Back', to: pathTo('EngagementsIndex') },
      { label: 'Edit', to: pathTo('EngagementsEdit', { engagementId: engagement.id }), variant: 'primary' },
      {
        label: 'Delete',
        onClick: async () => {
          if (await remove(engagement.id, engagement.name)) navigate(pathTo('SponsorsView', { id: engagement.sponsorId }));
        },
      },
    ],
  });

  return (
    <>
      <section className="panel">
        <ViewFields
          fields={[
            { label: L.name, value: engagement.name },
            { label: L.identification, value: engagement.fullIdentification },
            { label: L.sponsorName, value: <Link to={pathTo('SponsorsView', { id: engagement.sponsorId })}>{engagement.sponsorName}</Link> },
            { label: L.sponsorContact, value: engagement.sponsorContact },
            { label: L.ownerUsername, value: engagement.ownerUsername },
            { label: L.isActive, value: <StatusBadge active={engagement.isActive} /> },
            { label: L.phase, value: engagement.phase },
            { label: L.startDate, value: formatDay(engagement.startDate) },
            { label: L.endDate, value: formatDay(engagement.endDate) },
            { label: L.mediaLiveDate, value: formatDay(engagement.mediaLiveDate) },
            { label: L.mediaEndDate, value: formatDay(engagement.mediaEndDate) },
            { label: L.radius, value: engagement.radius },
            { label: L.duplicateWindowDays, value: engagement.duplicateWindowDays },
            { label: L.pause, value: engagement.pause ? `${engagement.pause.text} (since ${formatDateTime(engagement.pause.since)})` : 'offered' },
            { label: L.targetParticipantCount, value: engagement.targetParticipantCount },
            { label: L.targetMeasure, value: engagement.targetMeasure === 'randomized' ? 'Randomized participants' : 'Referrals' },
            { label: L.protocolIdentifier, value: engagement.protocolIdentifier },
            { label: L.protocolVersion, value: engagement.protocolVersion },
            { label: L.studySubjectIdentifier, value: engagement.studySubjectIdentifier },
            { label: L.amendmentDate, value: formatDay(engagement.amendmentDate) },
            { label: L.firstPatientInDate, value: formatDay(engagement.firstPatientInDate) },
            { label: L.lastPatientInDate, value: formatDay(engagement.lastPatientInDate) },
            { label: L.rareDisease, value: engagement.rareDisease },
            { label: L.cellGeneTherapy, value: engagement.cellGeneTherapy },
            { label: L.deiFocus, value: engagement.deiFocus },
            { label: L.deiTarget, value: engagement.deiTarget },
            { label: L.g6Url, value: engagement.g6Url },
            { label: L.rmsProviderName, value: engagement.rmsProviderName },
            { label: L.rmsSponsorIdentifier, value: engagement.rmsSponsorIdentifier },
            { label: L.campaignTypes, value: names(engagement.campaignTypes) },
            { label: L.indications, value: names(engagement.indications) },
            { label: L.targetGroups, value: names(engagement.targetGroups) },
            { label: L.therapeuticAreas, value: names(engagement.therapeuticAreas) },
            { label: L.description, value: engagement.description, multiline: true },
            { label: L.created, value: formatDateTime(engagement.created) },
            { label: L.modified, value: formatDateTime(engagement.modified) },
          ]}
        />
      </section>
      <ReferralCountsPanel engagementId={engagement.id} />
      <FunnelPanel filters={{ engagementId: engagement.id }} of={engagement.name} groupBy="mediaChannel" />
      <SitesPanel key={sitesVersion} engagement={engagement} />
      {hasRole(user, 'Admin', 'Super User') && <ClinicalTrialsGovPanel engagementId={engagement.id} onImported={() => setSitesVersion((n) => n + 1)} />}
      <EngagementFilesPanel engagementId={engagement.id} />
      <MessageSettingsPanel engagementId={engagement.id} canEdit={hasRole(user, 'Admin', 'Super User')} />
    </>
  );
}

export default function EngagementsView() {
  return (
    <RecordLoader state={useEngagement()} resource="engagement">
      {(engagement) => (
        <>
          <EngagementDetails engagement={engagement} />
          <HistoryPanel entity="engagements" entityId={engagement.id} labels={L} />
        </>
      )}
    </RecordLoader>
  );
}

import { useState } from 'react';
import { Link } from 'react-router-dom';
import { engagementSiteLocationsApi } from '@core/api/engagementSiteLocations';
import { engagementsApi } from '@core/api/engagements';
import { referralsApi } from '@core/api/referrals';
import { hasRole } from '@core/model/user';
import type { Engagement } from '@core/model/engagement';
import { formatDateTime } from '../../components/format';
import { PageTable } from '../../components/list/DataTable';
import { RecordView } from '../../components/RecordView';
import { FunnelPanel } from '../../components/funnel/FunnelPanel';
import { LeadsWithinReach } from '../../components/LeadsWithinReach';
import { StatusBadge } from '../../components/StatusBadge';
import { useViewTopBar } from '../../components/useViewTopBar';
import { activeField, displayValue, multilineField, recordFields, stampFields, type ViewField, ViewFields } from '../../components/ViewFields';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useAtomValue } from 'jotai';
import { currentUserAtom } from '../../state/auth';
import { useApi } from '../../state/services';
import { sponsorTrail } from '../sponsors/sponsorTrail';
import { EngagementFilesPanel } from './EngagementFilesPanel';
import { MessageSettingsPanel } from './MessageSettingsPanel';
import { ClinicalTrialsGovPanel } from './ClinicalTrialsGovPanel';
import { ENGAGEMENT_LABELS as L, formatDay } from './engagementValues';
import { useEngagement } from './useEngagement';
import { sitePreviewParams } from './viewCalls';
import { ErrorText } from '../../components/form/FormErrors';

const names = (items?: { name: string }[]) => (items?.length ? items.map((i) => i.name).join(', ') : null);

function ReferralCountsPanel({ engagementId }: { engagementId: string }) {
  const api = useApi(referralsApi);
  const counts = useAsync(() => api.counts(engagementId), [api, engagementId]);
  return (
    <section className="panel" id="referrals" aria-labelledby="referrals-title">
      <h2 id="referrals-title">Referrals</h2>
      {counts.error ? (
        <ErrorText message="Could not load the referral counts." />
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
      <PageTable
        caption="Linked site locations"
        page={links}
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
  const user = useAtomValue(currentUserAtom);
  // Raised by an import, so the sites panel reads the engagement's sites again.
  const [sitesVersion, setSitesVersion] = useState(0);
  const sponsorView = pathTo('SponsorsView', { id: engagement.sponsorId });
  useViewTopBar({
    objectTitle: engagement.name,
    breadcrumbs: [...sponsorTrail(engagement), { label: engagement.name }],
    back: pathTo('EngagementsIndex'),
    edit: pathTo('EngagementsEdit', { engagementId: engagement.id }),
    remove: { run: api.remove, what: 'Engagement', id: engagement.id, name: engagement.name, goTo: sponsorView },
  });
  const day = (key: DayKey): ViewField => ({ label: L[key], value: formatDay(engagement[key]) });
  return (
    <>
      <section className="panel">
        <ViewFields
          fields={recordFields(L, engagement, [
            'name',
            { label: L.identification, value: engagement.fullIdentification },
            { label: L.sponsorName, value: <Link to={sponsorView}>{engagement.sponsorName}</Link> },
            'sponsorContact',
            'ownerUsername',
            activeField(L, engagement),
            'phase',
            day('startDate'),
            day('endDate'),
            day('mediaLiveDate'),
            day('mediaEndDate'),
            'radius',
            'duplicateWindowDays',
            { label: L.pause, value: engagement.pause ? `${engagement.pause.text} (since ${formatDateTime(engagement.pause.since)})` : 'offered' },
            'targetParticipantCount',
            { label: L.targetMeasure, value: engagement.targetMeasure === 'randomized' ? 'Randomized participants' : 'Referrals' },
            'protocolIdentifier',
            'protocolVersion',
            'studySubjectIdentifier',
            day('amendmentDate'),
            day('firstPatientInDate'),
            day('lastPatientInDate'),
            'rareDisease',
            'cellGeneTherapy',
            'deiFocus',
            'deiTarget',
            'g6Url',
            'rmsProviderName',
            'rmsSponsorIdentifier',
            ...(['campaignTypes', 'indications', 'targetGroups', 'therapeuticAreas'] as const).map((key) => ({ label: L[key], value: names(engagement[key]) })),
            multilineField(L.description, engagement.description),
            ...stampFields(L, engagement),
          ])}
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

type DayKey = 'startDate' | 'endDate' | 'mediaLiveDate' | 'mediaEndDate' | 'amendmentDate' | 'firstPatientInDate' | 'lastPatientInDate';

export default function EngagementsView() {
  return (
    <RecordView state={useEngagement()} resource="engagement" history="engagements" labels={L}>
      {(engagement) => <EngagementDetails engagement={engagement} />}
    </RecordView>
  );
}

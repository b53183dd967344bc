import { useAtomValue } from 'jotai';
import { Link, useNavigate } from 'react-router-dom';
import { engagementsApi } from '@core/api/engagements';
import { sponsorsApi } from '@core/api/sponsors';
import { ENGAGEMENT_DEFAULT_SORT, ENGAGEMENT_SORTS } from '@core/model/engagement';
import { ListView } from '../../components/list/ListView';
import { useResourceList } from '../../components/list/useResourceList';
import { engagementColumns } from '../engagements/Index';
import { SponsorScreeners } from '../screeners/SponsorScreeners';
import type { Sponsor } from '@core/model/sponsor';
import { hasRole } from '@core/model/user';
import { formatDateTime } from '../../components/format';
import { RecordLoader } from '../../components/RecordLoader';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { SPONSOR_LABELS as L } from './sponsorValues';
import { useSponsor } from './useSponsor';

/** The sponsor's engagements, with an Add that preselects the sponsor. */
function SponsorEngagements({ sponsor }: { sponsor: Sponsor }) {
  const api = useApi(engagementsApi);
  const list = useResourceList({ load: api.list, defaultSort: ENGAGEMENT_DEFAULT_SORT, sortable: ENGAGEMENT_SORTS, filters: { sponsorId: sponsor.id } });
  const remove = useDeleteWithConfirm(api.remove, 'Engagement');
  return (
    <section className="panel" id="engagements" aria-labelledby="sponsor-engagements-title">
      <div className="panel-heading">
        <h2 id="sponsor-engagements-title">Engagements</h2>
        <Link className="btn btn-small btn-secondary" to={pathTo('EngagementsAdd', { selectedSponsorId: sponsor.id })}>
          Add Engagement
        </Link>
      </div>
      <ListView list={list} columns={engagementColumns(remove, list.reload, false)} caption="Sponsor engagements" emptyMessage="No engagements yet." />
    </section>
  );
}

function SponsorDetails({ sponsor }: { sponsor: Sponsor }) {
  const api = useApi(sponsorsApi);
  const navigate = useNavigate();
  const remove = useDeleteWithConfirm(api.remove, 'Sponsor');
  // Sponsors are created and deleted by Admins and Super Users only (the server refuses others).
  const canDelete = hasRole(useAtomValue(currentUserAtom), 'Admin', 'Super User');

  useTopBar({
    objectTitle: sponsor.name,
    buttons: [
      { label: 'Back', to: pathTo('SponsorsIndex') },
      { label: 'Edit', to: pathTo('SponsorsEdit', { id: sponsor.id }), variant: 'primary' },
      ...(canDelete
        ? [
            {
              label: 'Delete',
              onClick: async () => {
                if (await remove(sponsor.id, sponsor.name)) navigate(pathTo('SponsorsIndex'));
              },
            },
          ]
        : []),
    ],
  });

  return (
    <section className="panel">
      <ViewFields
        fields={[
          { label: L.name, value: sponsor.name },
          { label: L.identification, value: sponsor.identification },
          { label: L.rmsSponsorIdentifier, value: sponsor.rmsSponsorIdentifier },
          { label: L.countryName, value: sponsor.countryName },
          { label: L.isActive, value: <StatusBadge active={sponsor.isActive} /> },
          { label: L.description, value: sponsor.description, multiline: true },
          { label: L.businessPractice, value: sponsor.businessPractice, multiline: true },
          { label: L.activeEngagements, value: sponsor.activeEngagements },
          { label: L.totalEngagements, value: sponsor.totalEngagements },
          { label: L.totalSites, value: sponsor.totalSites },
          { label: L.totalReferrals, value: sponsor.totalReferrals },
          { label: L.duplicateReferrals, value: sponsor.duplicateReferrals },
          { label: L.totalScreenedReferrals, value: sponsor.totalScreenedReferrals },
          { label: L.totalRandomizedReferrals, value: sponsor.totalRandomizedReferrals },
          { label: L.created, value: formatDateTime(sponsor.created) },
          { label: L.modified, value: formatDateTime(sponsor.modified) },
        ]}
      />
    </section>
  );
}

export default function SponsorsView() {
  return (
    <RecordLoader state={useSponsor()} resource="sponsor">
      {(sponsor) => (
        <>
          <SponsorDetails sponsor={sponsor} />
          <SponsorEngagements sponsor={sponsor} />
          <SponsorScreeners sponsorId={sponsor.id} />
          <HistoryPanel entity="sponsors" entityId={sponsor.id} labels={L} />
        </>
      )}
    </RecordLoader>
  );
}

import { LeadsWithinReach } from '../../components/LeadsWithinReach';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { engagementsApi } from '@core/api/engagements';
import { siteLocationsApi } from '@core/api/siteLocations';
import type { SiteLocation } from '@core/model/siteLocation';
import { formatDateTime } from '../../components/format';
import { DataTable } from '../../components/list/DataTable';
import { RecordLoader } from '../../components/RecordLoader';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { ViewFields } from '../../components/ViewFields';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { SITE_LOCATION_LABELS as L, addressLine, irbLabel, siteKindLabel } from './siteLocationValues';
import { useSiteLocation } from './useSiteLocation';

/** The engagements this site is linked to (sortAssociated puts them first). */
function LinkedEngagements({ site }: { site: SiteLocation }) {
  const api = useApi(engagementsApi);
  const list = useAsync(() => api.list({ sortAssociated: site.id, limit: 100 }), [api, site.id]);
  const linked = (list.data?.items ?? []).filter((e) => e.isAssociated);
  return (
    <section className="panel" aria-labelledby="linked-engagements-title">
      <h2 id="linked-engagements-title">Engagements</h2>
      <DataTable
        caption="Linked engagements"
        rowKey={(e) => e.id}
        rows={linked}
        loading={list.loading}
        emptyMessage="Not linked to any engagement."
        columns={[
          { id: 'name', header: 'Name', cell: (e) => <Link to={pathTo('EngagementsView', { engagementId: e.id })}>{e.name}</Link> },
          { id: 'sponsor', header: 'Sponsor', cell: (e) => e.sponsorName },
          { id: 'active', header: 'Active', cell: (e) => <StatusBadge active={e.isActive} /> },
        ]}
      />
    </section>
  );
}

function SiteDetails({ site }: { site: SiteLocation }) {
  const api = useApi(siteLocationsApi);
  const navigate = useNavigate();
  const { engagementId } = useParams();
  const remove = useDeleteWithConfirm(api.remove, 'Site location');
  const back = engagementId ? pathTo('SiteAssociations', { engagementId }) : pathTo('SiteLocationsIndex');

  useTopBar({
    objectTitle: site.name,
    buttons: [
      { label: 'Back', to: back },
      { label: 'Edit', to: pathTo('SiteLocationsEdit', { id: site.id }), variant: 'primary' },
      {
        label: 'Delete',
        onClick: async () => {
          if (await remove(site.id, site.name)) navigate(pathTo('SiteLocationsIndex'));
        },
      },
    ],
  });

  return (
    <>
      <section className="panel">
        <ViewFields
          fields={[
            { label: L.name, value: site.name },
            { label: L.siteId, value: site.siteId },
            { label: 'Address', value: addressLine(site) },
            { label: L.countryName, value: site.countryName },
            { label: L.piName, value: site.piName },
            { label: L.latitude, value: site.latitude },
            { label: L.longitude, value: site.longitude },
            { label: L.siteLocationType, value: siteKindLabel(site.siteLocationType) },
            { label: L.irbType, value: irbLabel(site.irbType) },
            { label: L.isVirtual, value: site.isVirtual },
            { label: L.isActive, value: <StatusBadge active={site.isActive} /> },
            { label: L.description, value: site.description, multiline: true },
            { label: L.created, value: formatDateTime(site.created) },
            { label: L.modified, value: formatDateTime(site.modified) },
          ]}
        />
        <LeadsWithinReach filters={{ siteLocationId: site.id }} leadsPath={pathTo('LeadsIndex')} />
      </section>
      <LinkedEngagements site={site} />
    </>
  );
}

export default function SiteLocationsView() {
  return (
    <RecordLoader state={useSiteLocation()} resource="site location">
      {(site) => (
        <>
          <SiteDetails site={site} />
          <HistoryPanel entity="site-locations" entityId={site.id} />
        </>
      )}
    </RecordLoader>
  );
}

import { useState } from 'react';
import { LeadsWithinReach } from '../../components/LeadsWithinReach';
import { SelectChoices } from '../../components/form/Select';
import { Link, useParams } from 'react-router-dom';
import { siteCoordinatorsApi } from '@core/api/siteCoordinators';
import { usersApi } from '@core/api/users';
import { SITE_COORDINATOR, hasRole, type SiteCoordinatorRow } from '@core/model/user';
import { useNotify } from '../../state/notices';
import { engagementsApi } from '@core/api/engagements';
import { siteLocationsApi } from '@core/api/siteLocations';
import type { SiteLocation } from '@core/model/siteLocation';
import { DataTable, PageTable } from '../../components/list/DataTable';
import { buttonsColumn } from '../../components/list/columns';
import { RecordView } from '../../components/RecordView';
import { StatusBadge } from '../../components/StatusBadge';
import { useViewTopBar } from '../../components/useViewTopBar';
import { activeField, multilineField, recordFields, stampFields, ViewFields } from '../../components/ViewFields';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useBusyCall } from '../../hooks/useBusyCall';
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

/** The Site Coordinators tied to this site: they work its referrals. Admins and Super Users tie and untie them. */
function Coordinators({ site }: { site: SiteLocation }) {
  const api = useApi(siteCoordinatorsApi);
  const users = useApi(usersApi);
  const notify = useNotify();
  const tied = useAsync(() => api.list(site.id), [api, site.id]);
  const candidates = useAsync(() => users.list({ limit: 1000, sort: 'username' }), [users]);
  const [userId, setUserId] = useState('');
  const { busy, run } = useBusyCall((message) => notify('error', message));
  const tiedIds = new Set((tied.data?.items ?? []).map((c) => String(c.userId)));
  const offered = (candidates.data?.items ?? []).filter((u) => hasRole(u, SITE_COORDINATOR) && !tiedIds.has(u.id));
  const act = (action: () => Promise<unknown>, done: string) =>
    run(async () => {
      await action();
      notify('success', done);
      setUserId('');
      tied.reload();
    }, 'Could not save the change.');
  return (
    <section className="panel" aria-labelledby="site-coordinators-title">
      <h2 id="site-coordinators-title">Site coordinators</h2>
      <PageTable
        caption="Site coordinators"
        page={tied}
        emptyMessage="No coordinator works this site's referrals yet."
        columns={[
          { id: 'username', header: 'Username', cell: (c) => c.username },
          { id: 'email', header: 'Email', cell: (c) => c.email ?? '—' },
          { id: 'active', header: 'Active', cell: (c) => <StatusBadge active={c.isActive} /> },
          buttonsColumn<SiteCoordinatorRow>('Actions', (c) => (
            <button
              type="button"
              className="btn btn-small btn-secondary"
              disabled={busy}
              onClick={() => void act(() => api.untie(c.id), `${c.username} no longer coordinates this site`)}
            >
              Remove <span className="visually-hidden">{c.username}</span>
            </button>
          )),
        ]}
      />
      <div className="inline-form">
        <label htmlFor="coordinator-user">Add a coordinator</label>
        <select id="coordinator-user" value={userId} onChange={(e) => setUserId(e.target.value)}>
          <SelectChoices options={offered.map((u) => ({ value: u.id, label: u.username }))} emptyLabel="Choose a Site Coordinator…" />
        </select>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || userId === ''}
          onClick={() => void act(() => api.tie(Number(site.id), Number(userId)), 'Coordinator added')}
        >
          Add coordinator
        </button>
      </div>
      {candidates.data && offered.length === 0 && <p className="muted">Users with the role Site Coordinator (User Management) can be added here.</p>}
    </section>
  );
}

function SiteDetails({ site }: { site: SiteLocation }) {
  const api = useApi(siteLocationsApi);
  const { engagementId } = useParams();
  useViewTopBar({
    objectTitle: site.name,
    back: engagementId ? pathTo('SiteAssociations', { engagementId }) : pathTo('SiteLocationsIndex'),
    edit: pathTo('SiteLocationsEdit', { id: site.id }),
    remove: { run: api.remove, what: 'Site location', id: site.id, name: site.name, goTo: pathTo('SiteLocationsIndex') },
  });
  return (
    <>
      <section className="panel">
        <ViewFields
          fields={recordFields(L, site, [
            'name',
            'siteId',
            { label: 'Address', value: addressLine(site) },
            'countryName',
            'piName',
            'latitude',
            'longitude',
            { label: L.siteLocationType, value: siteKindLabel(site.siteLocationType) },
            { label: L.irbType, value: irbLabel(site.irbType) },
            'isVirtual',
            activeField(L, site),
            multilineField(L.description, site.description),
            ...stampFields(L, site),
          ])}
        />
        <LeadsWithinReach filters={{ siteLocationId: site.id }} leadsPath={pathTo('LeadsIndex')} />
      </section>
      <LinkedEngagements site={site} />
      <Coordinators site={site} />
    </>
  );
}

export default function SiteLocationsView() {
  return (
    <RecordView state={useSiteLocation()} resource="site location" history="site-locations" labels={L}>
      {(site) => <SiteDetails site={site} />}
    </RecordView>
  );
}

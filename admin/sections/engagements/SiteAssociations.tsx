/**
 * SiteAssociations (/engagements/site-locations/{engagementId}): the engagement's linked sites,
 * each link's radius, RMS site identification, active flag, caps (per week, in all) and pause
 * edited in place with its fill against cap shown, new links
 * from the site locations not yet linked, and unlinking with the confirm dialog.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { ApiError } from '@core/api/client';
import { engagementSiteLocationsApi } from '@core/api/engagementSiteLocations';
import { siteLocationsApi } from '@core/api/siteLocations';
import type { Engagement } from '@core/model/engagement';
import {
  ENGAGEMENT_SITE_LOCATION_DEFAULT_SORT,
  ENGAGEMENT_SITE_LOCATION_SORTS,
  EngagementSiteLocationPatch,
  type EngagementSiteLocation,
} from '@core/model/engagementSiteLocation';
import { hasRole } from '@core/model/user';
import { issuesByField } from '@core/model/fields';
import * as v from 'valibot';
import { ListView } from '../../components/list/ListView';
import { buttonsColumn } from '../../components/list/columns';
import { RowRemoveButton } from '../../components/list/RowActions';
import { useResourceList } from '../../components/list/useResourceList';
import type { Column } from '../../components/list/DataTable';
import { RecordLoader } from '../../components/RecordLoader';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { displayValue } from '../../components/ViewFields';
import { fieldText, numberOrNull } from '../../components/form/fieldText';
import { SAVE_FAILED } from '../../components/form/useEntityForm';
import { useAsync } from '../../hooks/useAsync';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useBusyCall } from '../../hooks/useBusyCall';
import { useEngagement } from './useEngagement';
import { ErrorText } from '../../components/form/FormErrors';
import './engagements.css';

/** Fill against cap: "3 / 5 this week · 12 / 100 in all · weekly cap reached". */
export function fillText(l: Pick<EngagementSiteLocation, 'referralsThisWeek' | 'referralsTotal' | 'weeklyCap' | 'totalCap' | 'fullReason'>): string {
  const parts = [
    `${l.referralsThisWeek}${l.weeklyCap === null ? '' : ` / ${l.weeklyCap}`} this week`,
    `${l.referralsTotal}${l.totalCap === null ? '' : ` / ${l.totalCap}`} in all`,
  ];
  if (l.fullReason) parts.push(l.fullReason);
  return parts.join(' · ');
}

/** A narrow whole-number box of a link's row, named by its label alone (the row has no field labels). */
function CountInput({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange: (value: string) => void }) {
  return (
    <input
      className="input input-narrow"
      type="number"
      inputMode="numeric"
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** One link's editable values, saved with its own button. */
function LinkEditor({ link, engagement, onSaved }: { link: EngagementSiteLocation; engagement: Engagement; onSaved: () => void }) {
  const api = useApi(engagementSiteLocationsApi);
  const notify = useNotify();
  const [radius, setRadius] = useState(fieldText(link.radius));
  const [rms, setRms] = useState(link.rmsSiteIdentification ?? '');
  const [active, setActive] = useState(link.isActive);
  const [weeklyCap, setWeeklyCap] = useState(fieldText(link.weeklyCap));
  const [totalCap, setTotalCap] = useState(fieldText(link.totalCap));
  const [paused, setPaused] = useState(link.isPaused);
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useBusyCall(setError);
  const dirty =
    radius !== fieldText(link.radius) ||
    rms !== (link.rmsSiteIdentification ?? '') ||
    active !== link.isActive ||
    weeklyCap !== fieldText(link.weeklyCap) ||
    totalCap !== fieldText(link.totalCap) ||
    paused !== link.isPaused;

  const save = async () => {
    const input = {
      radius: numberOrNull(radius),
      rmsSiteIdentification: rms,
      isActive: active,
      weeklyCap: numberOrNull(weeklyCap),
      totalCap: numberOrNull(totalCap),
      isPaused: paused,
    };
    const parsed = v.safeParse(EngagementSiteLocationPatch, input);
    if (!parsed.success) {
      setError(Object.values(issuesByField(parsed.issues))[0] ?? SAVE_FAILED);
      return;
    }
    setError(null);
    await run(async () => {
      await api.update(link.id, input);
      notify('success', `${link.siteName} saved.`);
      onSaved();
    }, SAVE_FAILED);
  };

  return (
    <div className="link-editor">
      <CountInput label={`Radius for ${link.siteName}`} placeholder={String(engagement.radius)} value={radius} onChange={setRadius} />
      <input
        className="input"
        aria-label={`RMS site identification for ${link.siteName}`}
        placeholder="RMS site id"
        value={rms}
        maxLength={255}
        onChange={(event) => setRms(event.target.value)}
      />
      <label>
        <input type="checkbox" checked={active} onChange={(event) => setActive(event.target.checked)} aria-label={`Active link for ${link.siteName}`} /> Active
      </label>
      <CountInput label={`Referrals per week for ${link.siteName}`} placeholder="Per week" value={weeklyCap} onChange={setWeeklyCap} />
      <CountInput label={`Referrals in all for ${link.siteName}`} placeholder="In all" value={totalCap} onChange={setTotalCap} />
      <label>
        <input type="checkbox" checked={paused} onChange={(event) => setPaused(event.target.checked)} aria-label={`Pause ${link.siteName}`} /> Paused
      </label>
      <button type="button" className="btn btn-small btn-primary" disabled={!dirty || busy} onClick={() => void save()} aria-label={`Save ${link.siteName}`}>
        Save
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Links a site location that is not linked yet. */
function AddLink({ engagement, onAdded }: { engagement: Engagement; onAdded: () => void }) {
  const sites = useApi(siteLocationsApi);
  const links = useApi(engagementSiteLocationsApi);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const found = useAsync(
    () => (query.trim() ? sites.list({ searchQuery: query.trim(), excludeEngagementId: engagement.id, limit: 10 }) : Promise.resolve(null)),
    [sites, query, engagement.id],
  );
  const add = async (siteLocationId: string) => {
    setError(null);
    try {
      await links.create({ engagementId: Number(engagement.id), siteLocationId: Number(siteLocationId) });
      setQuery('');
      onAdded();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : SAVE_FAILED);
    }
  };
  return (
    <section className="panel" aria-labelledby="add-link-title">
      <h2 id="add-link-title">Link a Site Location</h2>
      <input
        className="input"
        type="search"
        aria-label="Find a site location"
        placeholder="Name, site id, city, state, zip or PI name"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <ErrorText message={error} />
      {found.data && (
        <ul className="pick-list">
          {found.data.items.map((site) => (
            <li key={site.id}>
              <span>
                {site.name} {site.siteId && <span className="muted">({site.siteId})</span>} {site.city && <span className="muted">— {site.city}</span>}
              </span>
              <button type="button" className="btn btn-small btn-secondary" onClick={() => void add(site.id)} aria-label={`Link ${site.name}`}>
                Link
              </button>
            </li>
          ))}
          {found.data.items.length === 0 && <li className="muted">No unlinked site location matches.</li>}
        </ul>
      )}
    </section>
  );
}

function Associations({ engagement }: { engagement: Engagement }) {
  const api = useApi(engagementSiteLocationsApi);
  const user = useAtomValue(currentUserAtom);
  const list = useResourceList({
    load: api.list,
    defaultSort: ENGAGEMENT_SITE_LOCATION_DEFAULT_SORT,
    sortable: ENGAGEMENT_SITE_LOCATION_SORTS,
    filters: { engagementId: engagement.id },
  });
  const remove = useDeleteWithConfirm(api.remove, 'Site link');
  const admin = hasRole(user, 'Admin', 'Super User');

  useTopBar({
    objectTitle: engagement.name,
    buttons: [
      { label: 'Done', to: pathTo('EngagementsView', { engagementId: engagement.id }), variant: 'primary' },
      ...(admin ? [{ label: 'Upload Sites', to: pathTo('SiteLocationsUpload', { engagementId: engagement.id }) }] : []),
    ],
    search: list.search,
  });

  const columns: Column<EngagementSiteLocation>[] = [
    { id: 'siteId', header: 'Site ID', sortField: 'siteId', cell: (l) => displayValue(l.siteId) },
    {
      id: 'siteName',
      header: 'Name',
      sortField: 'siteName',
      cell: (l) => (admin ? <Link to={pathTo('SiteLocationsView', { id: l.siteLocationId, engagementId: engagement.id })}>{l.siteName}</Link> : l.siteName),
    },
    { id: 'city', header: 'City', sortField: 'city', cell: (l) => displayValue(l.city) },
    { id: 'state', header: 'State', sortField: 'state', cell: (l) => displayValue(l.state) },
    { id: 'status', header: 'Active', sortField: 'isActive', cell: (l) => <StatusBadge active={l.isActive} /> },
    { id: 'fill', header: 'Referrals (fill / cap)', cell: (l) => fillText(l) },
    {
      id: 'edit',
      header: 'Radius / RMS site id / caps',
      cell: (l) => <LinkEditor key={`${l.id}:${l.modified}`} link={l} engagement={engagement} onSaved={list.reload} />,
    },
    buttonsColumn('Actions', (l) => (
      <RowRemoveButton label={`Unlink ${l.siteName}`} remove={() => remove(l.id)} onRemoved={list.reload}>
        Unlink
      </RowRemoveButton>
    )),
  ];

  return (
    <>
      <ListView list={list} columns={columns} caption="Linked site locations" emptyMessage="No sites linked yet." />
      <AddLink engagement={engagement} onAdded={list.reload} />
    </>
  );
}

export default function SiteAssociations() {
  return (
    <RecordLoader state={useEngagement()} resource="engagement">
      {(engagement) => <Associations engagement={engagement} />}
    </RecordLoader>
  );
}

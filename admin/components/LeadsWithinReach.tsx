/**
 * "N leads within reach": the noTrialSites leads matched to a site that opened near them, for an
 * engagement's or a site's view, linking to the Leads screen filtered to them (listable and
 * exportable there). The count is the leads list's own total under the same filters.
 */
import { Link } from 'react-router-dom';
import { leadsApi } from '@core/api/leads';
import { useAsync } from '../hooks/useAsync';
import { useApi } from '../state/services';

/** The count's call, also made ahead by the views that show it (their routes' ahead functions). */
export const leadsWithinReachParams = (filters: Record<string, string>) => ({ limit: 10, fields: 'created', ...filters, withinReach: 'true' });

/** `leadsPath`: the Leads screen's path (the section's pathTo('LeadsIndex')). */
export function LeadsWithinReach({ filters, leadsPath }: { filters: Record<string, string>; leadsPath: string }) {
  const api = useApi(leadsApi);
  const key = new URLSearchParams({ ...filters, withinReach: 'true' }).toString();
  const found = useAsync(() => api.list(leadsWithinReachParams(Object.fromEntries(new URLSearchParams(key)))), [api, key]);
  if (found.error) return null;
  const n = found.data?.total;
  return (
    <p className="leads-within-reach">
      <Link to={`${leadsPath}?${key}`}>{n === undefined ? 'Leads within reach…' : `${n} lead${n === 1 ? '' : 's'} within reach`}</Link>
    </p>
  );
}

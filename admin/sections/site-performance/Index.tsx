/**
 * SitePerformance: per site location, the referrals made in a date range and how the site
 * worked them — how many, median hours to first contact, the share reached within the
 * engagement's service level, the screen-fail and randomization rates. The server keeps each
 * user to what they may see (a Site Coordinator their sites). Filters and sort live in the URL;
 * Export CSV gives the same rows.
 */
import { sitePerformanceApi } from '@core/api/referrals';
import type { SitePerformance } from '@core/model/sitePerformance';
import type { Column } from '../../components/list/DataTable';
import { fieldColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { SITE_PERFORMANCE_LIST } from './listCalls';

const percent = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(1)}%`);
const hours = (value: number | null) => (value === null ? '—' : `${value.toLocaleString('en-US')} h`);

export default function SitePerformanceIndex() {
  const api = useApi(sitePerformanceApi);
  const list = useApiResourceList(api, SITE_PERFORMANCE_LIST);
  useTopBar({});

  const columns: Column<SitePerformance>[] = [
    fieldColumn('siteName', 'Site', 'plain'),
    { id: 'referrals', header: 'Referrals', sortField: 'referrals', className: 'col-number', cell: (r) => r.referrals.toLocaleString('en-US') },
    {
      id: 'medianHoursToFirstContact',
      header: 'Median time to first contact',
      sortField: 'medianHoursToFirstContact',
      className: 'col-number',
      cell: (r) => hours(r.medianHoursToFirstContact),
    },
    {
      id: 'withinServiceLevelRate',
      header: 'Contacted within service level',
      sortField: 'withinServiceLevelRate',
      className: 'col-number',
      exportFields: ['withinServiceLevelRate', 'withinServiceLevel', 'dueForFirstContact'],
      cell: (r) => `${percent(r.withinServiceLevelRate)} (${r.withinServiceLevel} of ${r.dueForFirstContact})`,
    },
    {
      id: 'screenFailRate',
      header: 'Screen-fail rate',
      sortField: 'screenFailRate',
      className: 'col-number',
      exportFields: ['screenFailRate', 'screenFailed', 'screened'],
      cell: (r) => `${percent(r.screenFailRate)} (${r.screenFailed} of ${r.screened})`,
    },
    {
      id: 'randomizationRate',
      header: 'Randomization rate',
      sortField: 'randomizationRate',
      className: 'col-number',
      exportFields: ['randomizationRate', 'randomized', 'referrals'],
      cell: (r) => `${percent(r.randomizationRate)} (${r.randomized})`,
    },
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Site performance"
      emptyMessage="No referrals in this range."
      filters={[
        { kind: 'date', name: 'from', label: 'Referred from' },
        { kind: 'date', name: 'to', label: 'Referred to' },
      ]}
    />
  );
}

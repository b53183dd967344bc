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
import { dateRangeFilters } from '../../components/list/filters';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { SITE_PERFORMANCE_LIST } from './listCalls';

const percent = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(1)}%`);
const hours = (value: number | null) => (value === null ? '—' : `${value.toLocaleString('en-US')} h`);

/** A rate's column: the share, then the counts it comes from; sorted by the rate, exported with its counts. */
const rateColumn = (
  rate: 'withinServiceLevelRate' | 'screenFailRate' | 'randomizationRate',
  header: string,
  counts: readonly (keyof SitePerformance)[],
  countsText: (r: SitePerformance) => string,
): Column<SitePerformance> => ({
  id: rate,
  header,
  sortField: rate,
  className: 'col-number',
  exportFields: [rate, ...counts],
  cell: (r) => `${percent(r[rate])} (${countsText(r)})`,
});

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
    rateColumn(
      'withinServiceLevelRate',
      'Contacted within service level',
      ['withinServiceLevel', 'dueForFirstContact'],
      (r) => `${r.withinServiceLevel} of ${r.dueForFirstContact}`,
    ),
    rateColumn('screenFailRate', 'Screen-fail rate', ['screenFailed', 'screened'], (r) => `${r.screenFailed} of ${r.screened}`),
    rateColumn('randomizationRate', 'Randomization rate', ['randomized', 'referrals'], (r) => `${r.randomized}`),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Site performance"
      emptyMessage="No referrals in this range."
      filters={dateRangeFilters('Referred from', 'Referred to')}
    />
  );
}

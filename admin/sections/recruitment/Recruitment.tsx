/**
 * Recruitment: the funnel of the submissions any member of staff may see (the server applies
 * their sponsor scope), narrowed by the filters and broken down by the grouping, both kept in
 * the URL (admin/components/funnel/funnelQuery.ts) so reload and links keep them; grouped by a
 * hidden field, a second select offers the names the media channels in the filters declare. A funnel chart
 * with the conversion between consecutive stages, a trend by day or week, the breakdown table
 * and its CSV as the server writes it (GET /api/recruitment-funnel with Accept: text/csv).
 */
import { useState } from 'react';
import { useSearchUpdate } from '../../routing/searchUpdate';
import { ApiError } from '@core/api/client';
import { engagementsApi } from '@core/api/engagements';
import { funnelApi } from '@core/api/funnel';
import { mediaChannelsApi } from '@core/api/mediaChannels';
import { surveysApi } from '@core/api/surveys';
import { screenersApi } from '@core/api/screeners';
import { siteLocationsApi } from '@core/api/siteLocations';
import {
  FUNNEL_DEFINITIONS,
  FUNNEL_FIGURE_LABELS,
  FUNNEL_FIGURES,
  FUNNEL_GROUPING_LABELS,
  FUNNEL_GROUPINGS,
  FUNNEL_LEAD_FIGURES,
  VIEWS_NOT_TRACKED,
  rowCounts,
  zeroFunnelCounts,
  type FunnelCounts,
  type FunnelGrouping,
} from '@core/model/funnel';
import type { FunnelRow } from '@core/model/funnelRow';
import { COST_FIGURE_LABELS, COST_FIGURES, COST_GROUPINGS, moneyText, type CostFigure } from '@core/model/funnelCosts';
import { FunnelChart, TrendChart } from '../../components/charts/lazy';
import { DownloadCsvButton } from '../../components/DownloadCsvButton';
import { labelledOptions, Select } from '../../components/form/Select';
import {
  funnelParams,
  readFunnelQuery,
  TREND_PERIODS,
  writeFunnelQuery,
  type FunnelFilterValues,
  type FunnelQuery,
  type TrendPeriod,
} from '../../components/funnel/funnelQuery';
import { DataTable, type Column } from '../../components/list/DataTable';
import { dateRangeFilters, engagementFilter, type ListFilterField, selectFilter, sponsorFilter } from '../../components/list/filters';
import { ListFilters } from '../../components/list/ListFilters';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useOptions } from '../../hooks/useOptions';
import { useSponsorOptions } from '../../hooks/useSponsorOptions';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { funnelCalls, optionCalls } from './calls';
import { ErrorText } from '../../components/form/FormErrors';
import './recruitment.css';

export const EXPORT_FAILED = 'Could not export the funnel';
const TREND_LABELS: Record<TrendPeriod, string> = { week: 'By week', day: 'By day' };

function useFilterFields(filters: FunnelFilterValues): ListFilterField[] {
  const engagements = useApi(engagementsApi);
  const screeners = useApi(screenersApi);
  const channels = useApi(mediaChannelsApi);
  const surveys = useApi(surveysApi);
  const sites = useApi(siteLocationsApi);
  const { sponsorId, screenerId, engagementId } = filters;
  const calls = optionCalls(filters);
  const sponsorOptions = useSponsorOptions();
  const engagementOptions = useOptions(
    async () => (await engagements.list(calls.engagements)).items.map((e) => ({ value: String(e.id), label: e.name })),
    [engagements, sponsorId],
    'Could not load the engagements.',
  );
  const screenerOptions = useOptions(
    async () => (await screeners.list(calls.screeners)).items.map((s) => ({ value: String(s.id), label: s.title })),
    [screeners, sponsorId],
    'Could not load the screeners.',
  );
  const channelOptions = useOptions(
    async () => (await channels.list(calls.channels)).items.map((c) => ({ value: String(c.id), label: c.title })),
    [channels, sponsorId, screenerId],
    'Could not load the media channels.',
  );
  const surveyOptions = useOptions(
    async () => (await surveys.list(calls.surveys)).items.map((f) => ({ value: f.identity, label: `${f.title} (v${f.version})` })),
    [surveys, sponsorId],
    'Could not load the surveys.',
  );
  const siteOptions = useOptions(
    async () => (await sites.list(calls.sites)).items.map((s) => ({ value: String(s.id), label: s.siteId ? `${s.name} (${s.siteId})` : s.name })),
    [sites, sponsorId, engagementId],
    'Could not load the site locations.',
  );
  return [
    sponsorFilter(sponsorOptions),
    engagementFilter(engagementOptions),
    selectFilter('screenerId', 'Screener', screenerOptions),
    selectFilter('mediaChannelId', 'Media channel', channelOptions),
    selectFilter('oFormIdentity', 'Survey', surveyOptions),
    selectFilter('siteLocationId', 'Site', siteOptions),
    ...dateRangeFilters('From', 'To'),
  ];
}

/** The hidden fields the media channels within the filters declare (the server refuses any other), by name. */
function HiddenFieldSelect({ filters, value, onChange }: { filters: FunnelFilterValues; value: string; onChange: (name: string) => void }) {
  const channels = useApi(mediaChannelsApi);
  const { sponsorId, screenerId, mediaChannelId } = filters;
  const names = useOptions(
    async () => {
      const { items } = await channels.list({ limit: 1000, ...(sponsorId ? { sponsorId } : {}), ...(screenerId ? { screenerId } : {}) });
      const declared = items.filter((c) => !mediaChannelId || String(c.id) === mediaChannelId).flatMap((c) => c.hiddenFields.map((f) => f.name));
      return [...new Set(declared)].sort().map((name) => ({ value: name, label: name }));
    },
    [channels, sponsorId, screenerId, mediaChannelId],
    'Could not load the hidden fields.',
  );
  const none = !names.loading && !names.error && names.options.length === 0;
  return (
    <Select
      label="Hidden field"
      name="hiddenField"
      value={value}
      options={names.options}
      emptyLabel="Choose a field"
      loading={names.loading}
      error={names.error ?? undefined}
      hint={none ? 'No media channel in these filters declares a hidden field.' : undefined}
      onChange={onChange}
    />
  );
}

function Failure({ error, what }: { error: unknown; what: string }) {
  return <ErrorText message={error instanceof ApiError ? error.message : `Could not load the ${what}.`} />;
}

/**
 * The leads kept beside the funnel, not in it: a lead is a run that left the line to
 * randomization, so it has no conversion from the stage before it.
 */
function LeadsKept({ counts }: { counts: FunnelCounts }) {
  const [, ...kinds] = FUNNEL_LEAD_FIGURES;
  return (
    <p className="funnel-leads" data-testid="funnel-leads">
      <strong>
        {FUNNEL_FIGURE_LABELS.leadsKept}: {counts.leadsKept.toLocaleString('en-US')}
      </strong>{' '}
      ({kinds.map((figure) => `${FUNNEL_FIGURE_LABELS[figure].replace(/^Leads: /, '')} ${counts[figure].toLocaleString('en-US')}`).join(', ')}) — contacts kept
      for future studies at the other outcomes, never referred.
    </p>
  );
}

export default function Recruitment() {
  const api = useApi(funnelApi);
  const [params, changeSearch] = useSearchUpdate();
  const query = readFunnelQuery(params);
  /** A change to the query, made from the query as it is about to be (not as this render read it). */
  const update = (change: (current: FunnelQuery) => Partial<FunnelQuery>) =>
    changeSearch((search) => {
      const current = readFunnelQuery(search);
      return writeFunnelQuery({ ...current, ...change(current) });
    });
  const fields = useFilterFields(query.filters);
  // On a phone the filters fold away behind one button so the funnel is on the first screen.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = Object.keys(query.filters).length;
  useTopBar({});

  const calls = funnelCalls(query);
  const total = useAsync(() => api.rows(calls.total), [api, JSON.stringify(calls.total)]);
  const trend = useAsync(() => api.rows(calls.trend), [api, JSON.stringify(calls.trend)]);
  // Grouped by a hidden field, the breakdown waits for the field's name.
  const { fieldMissing } = calls;
  const grouped = useAsync(async () => (calls.breakdown ? api.rows(calls.breakdown) : null), [api, JSON.stringify(calls.breakdown)]);
  const breakdown = calls.breakdown ? grouped : total;
  const groupLabel = query.groupBy === 'hiddenField' && query.hiddenField ? `Hidden field ${query.hiddenField}` : FUNNEL_GROUPING_LABELS[query.groupBy];
  const definitions = total.data?.definitions ?? FUNNEL_DEFINITIONS;

  const setFilter = (name: string, value: string) =>
    update((current) => {
      const filters: FunnelFilterValues = { ...current.filters, [name]: value };
      // A narrower choice that no longer belongs to the wider one is dropped with it.
      if (name === 'sponsorId') for (const n of ['engagementId', 'screenerId', 'mediaChannelId', 'oFormIdentity'] as const) delete filters[n];
      if (name === 'screenerId') delete filters.mediaChannelId;
      return { filters };
    });

  const columns: Column<FunnelRow>[] = [
    { id: 'label', header: query.groupBy === 'none' ? 'Scope' : groupLabel, cell: (r) => r.label },
    ...FUNNEL_FIGURES.map((figure) => ({
      id: figure,
      header: FUNNEL_FIGURE_LABELS[figure],
      className: 'col-number',
      cell: (r: FunnelRow) => {
        const value = r[figure];
        return value === null ? <span className="muted">{VIEWS_NOT_TRACKED}</span> : value.toLocaleString('en-US');
      },
    })),
  ];

  const costColumns: Column<FunnelRow>[] = [
    { id: 'label', header: query.groupBy === 'none' ? 'Scope' : groupLabel, cell: (r) => r.label },
    ...(['spend', ...Object.keys(COST_FIGURES)] as ('spend' | CostFigure)[]).map((figure) => ({
      id: figure,
      header: COST_FIGURE_LABELS[figure],
      className: 'col-number',
      cell: (r: FunnelRow) => moneyText(r[figure]),
    })),
  ];
  const costed = !fieldMissing && COST_GROUPINGS.includes(query.groupBy) && !query.filters.siteLocationId && !query.filters.oFormIdentity;
  // The same breakdown rows show counted, then costed.
  const breakdownRows = {
    rows: breakdown.data?.rows ?? [],
    rowKey: (r: FunnelRow) => r.id,
    loading: breakdown.loading,
    emptyMessage: 'Nothing counted for these filters.',
  };

  return (
    <div className="recruitment">
      <section className="panel recruitment-filters" aria-label="Filters and grouping" data-open={filtersOpen}>
        <button
          type="button"
          className="btn btn-secondary filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls="recruitment-filters-body"
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          {filtersOpen ? 'Hide filters' : 'Show filters'}
          {activeFilters > 0 ? ` (${activeFilters} active)` : ''} · {groupLabel}
        </button>
        <div id="recruitment-filters-body" className="filters-body">
          <ListFilters
            fields={fields}
            values={query.filters as Record<string, string>}
            onChange={setFilter}
            onClear={() => update(() => ({ filters: {} }))}
            active={Object.keys(query.filters).length > 0}
          />
          <div className="recruitment-grouping">
            <Select
              label="Group by"
              name="groupBy"
              value={query.groupBy}
              options={labelledOptions(FUNNEL_GROUPINGS, FUNNEL_GROUPING_LABELS)}
              onChange={(value) => update(() => ({ groupBy: value as FunnelGrouping }))}
            />
            {query.groupBy === 'hiddenField' && (
              <HiddenFieldSelect
                filters={query.filters}
                value={query.hiddenField ?? ''}
                onChange={(name) => update(() => ({ hiddenField: name || undefined }))}
              />
            )}
            <Select
              label="Trend"
              name="trend"
              value={query.trend}
              options={labelledOptions(TREND_PERIODS, TREND_LABELS)}
              onChange={(value) => update(() => ({ trend: value as TrendPeriod }))}
            />
          </div>
        </div>
      </section>

      <section className="panel" aria-labelledby="funnel-title">
        <h2 id="funnel-title">Funnel</h2>
        {total.error ? (
          <Failure error={total.error} what="funnel" />
        ) : total.loading && !total.data ? (
          <Loading />
        ) : (
          <>
            <FunnelChart
              counts={total.data?.rows[0] ? rowCounts(total.data.rows[0]) : zeroFunnelCounts()}
              definitions={definitions}
              label="Recruitment funnel"
            />
            <LeadsKept counts={total.data?.rows[0] ? rowCounts(total.data.rows[0]) : zeroFunnelCounts()} />
          </>
        )}
        <details className="funnel-definitions">
          <summary>What each stage counts</summary>
          <dl>
            {FUNNEL_FIGURES.map((figure) => (
              <div key={figure}>
                <dt>{FUNNEL_FIGURE_LABELS[figure]}</dt>
                <dd>{definitions[figure]}</dd>
              </div>
            ))}
          </dl>
        </details>
      </section>

      <section className="panel" aria-labelledby="trend-title">
        <h2 id="trend-title">Trend {query.trend === 'week' ? 'by week' : 'by day'}</h2>
        {trend.error ? (
          <Failure error={trend.error} what="trend" />
        ) : trend.loading && !trend.data ? (
          <Loading />
        ) : (
          <TrendChart
            period={query.trend}
            label={`Trend by ${query.trend}`}
            points={(trend.data?.rows ?? []).flatMap((r) => (r.group ? [{ period: r.group, counts: rowCounts(r) }] : []))}
          />
        )}
      </section>

      <section className="panel" aria-labelledby="breakdown-title">
        <div className="panel-heading">
          <h2 id="breakdown-title">Breakdown{query.groupBy === 'none' ? '' : ` by ${groupLabel.toLowerCase()}`}</h2>
          {!fieldMissing && (
            <div className="row-actions">
              <DownloadCsvButton failed={EXPORT_FAILED} download={() => api.csv(funnelParams(query.filters, query.groupBy, query.hiddenField))} />
            </div>
          )}
        </div>
        {fieldMissing ? (
          <p>Choose the hidden field to group by.</p>
        ) : breakdown.error ? (
          <Failure error={breakdown.error} what="breakdown" />
        ) : (
          <DataTable caption="Funnel breakdown" columns={columns} {...breakdownRows} />
        )}
      </section>

      <section className="panel" aria-labelledby="costs-title">
        <h2 id="costs-title">Cost per outcome</h2>
        {!costed ? (
          <p className="muted">
            Cost per outcome is shown without grouping or grouped by media channel, campaign or engagement, and not for one site or survey: spend is entered per
            channel.
          </p>
        ) : breakdown.error ? null : (
          <>
            <p className="muted">
              Each channel's spend (entered on the media channel) counts by the days its period shares with the dates chosen; by engagement, split by the
              channel's started participants. Referred: a contact left that is not a duplicate.
            </p>
            <DataTable caption="Cost per outcome" columns={costColumns} {...breakdownRows} />
          </>
        )}
      </section>
    </div>
  );
}

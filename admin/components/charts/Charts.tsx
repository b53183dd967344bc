/**
 * The recruitment charts, drawn as plain HTML bars and SVG: a funnel with the conversion
 * between consecutive stages, a trend of stage counts by day or week, and a survey version's
 * drop-off per page. Loaded lazily (./lazy.tsx). Every chart names itself for assistive
 * technology and shows its figures as text; the screens beside them hold the full tables.
 */
import { FUNNEL_STAGE_LABELS, FUNNEL_STAGES, conversion, previousStage, type FunnelCounts, type FunnelStage } from '@core/model/funnel';
import type { SurveyPageMetrics } from '@core/model/surveyExport';
import { fillPeriods, formatCount, formatShare, niceMax } from './series';
import './charts.css';

export interface FunnelChartProps {
  counts: FunnelCounts;
  /** Names the chart, e.g. 'Recruitment funnel'. */
  label: string;
  definitions?: Partial<Record<FunnelStage, string>>;
  compact?: boolean;
}

/** One bar per stage, as wide as its share of the largest stage, with the conversion from the stage before. */
export function FunnelChart({ counts, label, definitions, compact }: FunnelChartProps) {
  const top = Math.max(1, ...FUNNEL_STAGES.map((s) => counts[s]));
  return (
    <figure className={compact ? 'funnel-chart is-compact' : 'funnel-chart'} aria-label={label}>
      <ol>
        {FUNNEL_STAGES.map((stage) => {
          const share = conversion(counts, stage);
          const before = previousStage(stage);
          const previous = before === null ? null : FUNNEL_STAGE_LABELS[before];
          return (
            <li key={stage} className="funnel-step" data-stage={stage} title={definitions?.[stage]}>
              {previous && (
                <span className="funnel-conversion" aria-label={`Conversion from ${previous} to ${FUNNEL_STAGE_LABELS[stage]}`}>
                  {share === null ? '–' : `${formatShare(share)} converted`}
                </span>
              )}
              <span className="funnel-stage">{FUNNEL_STAGE_LABELS[stage]}</span>
              <span className="funnel-bar" aria-hidden="true">
                <span style={{ width: `${(counts[stage] / top) * 100}%` }} />
              </span>
              <span className="funnel-count">{formatCount(counts[stage])}</span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}

/** The stages the trend draws (the rest are in the table): the ones that move week to week. */
export const TREND_STAGES: readonly FunnelStage[] = ['viewed', 'started', 'completed', 'qualified', 'contactLeft'];

export interface TrendPoint {
  /** An ISO day (a week by its Monday). */
  period: string;
  counts: FunnelCounts;
}

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { left: 48, right: 12, top: 12, bottom: 28 };

/** Lines of stage counts per period, the periods without any filled in as zeros. */
export function TrendChart({ points, period, label }: { points: readonly TrendPoint[]; period: 'day' | 'week'; label: string }) {
  const byPeriod = new Map(points.map((p) => [p.period, p.counts]));
  const periods = fillPeriods([...byPeriod.keys()], period);
  if (periods.length === 0) {
    return (
      <figure className="trend-chart" aria-label={label}>
        <p className="muted">Nothing counted in this range.</p>
      </figure>
    );
  }
  const value = (p: string, stage: FunnelStage) => byPeriod.get(p)?.[stage] ?? 0;
  const top = niceMax(Math.max(...periods.flatMap((p) => TREND_STAGES.map((s) => value(p, s)))));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (periods.length === 1 ? plotW / 2 : (i / (periods.length - 1)) * plotW);
  const y = (n: number) => PAD.top + plotH - (n / top) * plotH;
  const xLabels = periods.length <= 2 ? periods.map((_, i) => i) : [0, Math.floor((periods.length - 1) / 2), periods.length - 1];
  const unit = period === 'week' ? 'week' : 'day';
  return (
    <figure className="trend-chart" aria-label={label}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${label}: ${periods.length} ${unit}${periods.length === 1 ? '' : 's'} from ${periods[0]} to ${periods[periods.length - 1]}`}
      >
        {[0, top / 2, top].map((tick) => (
          <g key={tick} className="trend-grid">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end">
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {xLabels.map((i) => (
          <text
            key={i}
            className="trend-axis"
            x={x(i)}
            y={HEIGHT - 8}
            textAnchor={i === 0 && periods.length > 1 ? 'start' : i === periods.length - 1 && periods.length > 1 ? 'end' : 'middle'}
          >
            {periods[i]}
          </text>
        ))}
        {periods.length === 1
          ? // One period has no line to draw: its dots would sit on one vertical and hide each other,
            // so each stage is a bar of its own, labelled with its count.
            TREND_STAGES.map((stage, k) => {
              const slot = plotW / TREND_STAGES.length;
              const n = value(periods[0]!, stage);
              const left = PAD.left + k * slot + slot * 0.2;
              return (
                <g key={stage} className={`trend-series trend-${stage}`} data-stage={stage}>
                  <rect x={left} y={y(n)} width={slot * 0.6} height={Math.max(0, PAD.top + plotH - y(n))}>
                    <title>{`${periods[0]} · ${FUNNEL_STAGE_LABELS[stage]}: ${formatCount(n)}`}</title>
                  </rect>
                  <text className="trend-bar-count" x={left + slot * 0.3} y={y(n) - 4} textAnchor="middle">
                    {formatCount(n)}
                  </text>
                </g>
              );
            })
          : TREND_STAGES.map((stage) => (
              <g key={stage} className={`trend-series trend-${stage}`} data-stage={stage}>
                <polyline fill="none" points={periods.map((p, i) => `${x(i).toFixed(1)},${y(value(p, stage)).toFixed(1)}`).join(' ')} />
                {periods.map((p, i) => (
                  <circle key={p} cx={x(i)} cy={y(value(p, stage))} r={periods.length > 60 ? 1.5 : 3}>
                    <title>{`${p} · ${FUNNEL_STAGE_LABELS[stage]}: ${formatCount(value(p, stage))}`}</title>
                  </circle>
                ))}
              </g>
            ))}
      </svg>
      <figcaption className="chart-legend">
        {TREND_STAGES.map((stage) => (
          <span key={stage} className={`legend-item trend-${stage}`}>
            <span className="legend-swatch" aria-hidden="true" />
            {FUNNEL_STAGE_LABELS[stage]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

const seconds = (s: number | null) => (s === null ? '–' : `${Math.round(s)} s`);

/** Per page: the runs that reached it, and how many of them left the survey there. */
export function PageDropOffChart({ pages, label }: { pages: readonly SurveyPageMetrics[]; label: string }) {
  const top = Math.max(1, ...pages.map((p) => p.views));
  return (
    <figure className="dropoff-chart" aria-label={label}>
      <ol>
        {pages.map((p) => (
          <li key={p.id} className="dropoff-page" aria-label={`Page ${p.page}: ${p.title}`}>
            <span className="dropoff-title">
              {p.page}. {p.title}
            </span>
            <span className="dropoff-bar" aria-hidden="true">
              <span className="dropoff-reached" style={{ width: `${(p.views / top) * 100}%` }}>
                <span className="dropoff-left" style={{ width: `${p.views > 0 ? (p.dropOff / p.views) * 100 : 0}%` }} />
              </span>
            </span>
            <span className="dropoff-figures">
              {formatCount(p.views)} reached · {formatCount(p.dropOff)} left here{p.views > 0 ? ` (${formatShare(p.dropOff / p.views)})` : ''} · median{' '}
              {seconds(p.medianSeconds)}, p90 {seconds(p.p90Seconds)}
            </span>
          </li>
        ))}
      </ol>
      <figcaption className="chart-legend">
        <span className="legend-item dropoff-reached-key">
          <span className="legend-swatch" aria-hidden="true" />
          Reached the page
        </span>
        <span className="legend-item dropoff-left-key">
          <span className="legend-swatch" aria-hidden="true" />
          Left the survey there
        </span>
      </figcaption>
    </figure>
  );
}

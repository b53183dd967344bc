/**
 * Pure helpers of the charts: periods of a trend filled in (a week with nothing counted is a
 * zero, not a gap the line jumps over), and the figures' formats.
 */
import { DAY_MS } from '@core/time';

/** Every period from the first to the last key (ISO days; weeks by their Monday), at most `limit`. */
export function fillPeriods(keys: readonly string[], period: 'day' | 'week', limit = 800): string[] {
  const days = keys.filter((k) => /^\d{4}-\d{2}-\d{2}$/.test(k)).sort();
  if (days.length === 0) return [];
  const step = (period === 'week' ? 7 : 1) * DAY_MS;
  const first = Date.parse(`${days[0]}T00:00:00Z`);
  const last = Date.parse(`${days[days.length - 1]}T00:00:00Z`);
  const out: string[] = [];
  for (let t = first; t <= last && out.length < limit; t += step) out.push(new Date(t).toISOString().slice(0, 10));
  // Keys off the step (not expected from the server) are kept rather than dropped.
  return [...new Set([...out, ...days])].sort();
}

const NUMBER = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => NUMBER.format(n);

/** 0..1 as a percentage with one decimal, e.g. 0.4567 -> '45.7%'. */
export const formatShare = (share: number) => `${(share * 100).toFixed(1)}%`;

/** Ticks for an axis from 0 to max: 0, a round middle and a round top at or above max. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const f of [1, 2, 2.5, 5, 10]) if (f * magnitude >= max) return f * magnitude;
  return 10 * magnitude;
}

/**
 * The charts as a chunk of their own, fetched when a chart is first shown: screens and panels
 * render these, never ./Charts directly, so no chart code rides in the login screen's first
 * load nor in a screen that shows none.
 */
import { lazy, Suspense, type ComponentProps } from 'react';
import { Loading } from '../Loading';
import type * as Charts from './Charts';

const load = () => import('./Charts');
const LazyFunnel = lazy(() => load().then((m) => ({ default: m.FunnelChart })));
const LazyTrend = lazy(() => load().then((m) => ({ default: m.TrendChart })));
const LazyDropOff = lazy(() => load().then((m) => ({ default: m.PageDropOffChart })));

/** Fetches the charts' code ahead (while idle), so a screen with a chart does not wait on it after its data. */
export const preloadCharts = (): void => void load().catch(() => undefined);


export function FunnelChart(props: ComponentProps<typeof Charts.FunnelChart>) {
  return (
    <Suspense fallback={<Loading />}>
      <LazyFunnel {...props} />
    </Suspense>
  );
}

export function TrendChart(props: ComponentProps<typeof Charts.TrendChart>) {
  return (
    <Suspense fallback={<Loading />}>
      <LazyTrend {...props} />
    </Suspense>
  );
}

export function PageDropOffChart(props: ComponentProps<typeof Charts.PageDropOffChart>) {
  return (
    <Suspense fallback={<Loading />}>
      <LazyDropOff {...props} />
    </Suspense>
  );
}

/**
 * The charts as a chunk of their own, fetched when a chart is first shown: screens and panels
 * render these, never ./Charts directly, so no chart code rides in the login screen's first
 * load nor in a screen that shows none.
 */
import { lazy, Suspense, type ComponentProps } from 'react';
import { Loading } from '../Loading';
import type * as Charts from './Charts';

/**
 * The chunk once it has arrived. A chart whose code is already here renders at once: through
 * `lazy` it would suspend on the resolved import all the same, and React holds a revealed
 * fallback back for 300 ms, which a screen with its data in hand would spend showing "Loading…".
 */
let loaded: typeof Charts | null = null;
const load = () =>
  import('./Charts').then((charts) => {
    loaded = charts;
    return charts;
  });
const LazyFunnel = lazy(() => load().then((m) => ({ default: m.FunnelChart })));
const LazyTrend = lazy(() => load().then((m) => ({ default: m.TrendChart })));
const LazyDropOff = lazy(() => load().then((m) => ({ default: m.PageDropOffChart })));

/** Fetches the charts' code ahead (while idle), so a screen with a chart does not wait on it after its data. */
export const preloadCharts = (): void => void load().catch(() => undefined);

export function FunnelChart(props: ComponentProps<typeof Charts.FunnelChart>) {
  if (loaded) return <loaded.FunnelChart {...props} />;
  return (
    <Suspense fallback={<Loading />}>
      <LazyFunnel {...props} />
    </Suspense>
  );
}

export function TrendChart(props: ComponentProps<typeof Charts.TrendChart>) {
  if (loaded) return <loaded.TrendChart {...props} />;
  return (
    <Suspense fallback={<Loading />}>
      <LazyTrend {...props} />
    </Suspense>
  );
}

export function PageDropOffChart(props: ComponentProps<typeof Charts.PageDropOffChart>) {
  if (loaded) return <loaded.PageDropOffChart {...props} />;
  return (
    <Suspense fallback={<Loading />}>
      <LazyDropOff {...props} />
    </Suspense>
  );
}

/**
 * The charts as a chunk of their own, fetched when a chart is first shown: screens and panels
 * render these, never ./Charts directly, so no chart code rides in the login screen's first
 * load nor in a screen that shows none.
 */
import { type ComponentProps, type ComponentType, lazy, Suspense } from 'react';
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

const LazyFunnel = lazy(() => load().then((charts) => ({ default: charts.FunnelChart })));
const LazyTrend = lazy(() => load().then((charts) => ({ default: charts.TrendChart })));
const LazyDropOff = lazy(() => load().then((charts) => ({ default: charts.PageDropOffChart })));

/** A chart drawn from the chunk at once when it is here, else through `Lazy`, which suspends on fetching it. */
function ChunkChart<P extends object>({ pick, Lazy, props }: { pick: (charts: typeof Charts) => ComponentType<P>; Lazy: ComponentType<P>; props: P }) {
  if (loaded) {
    const Chart = pick(loaded);
    return <Chart {...props} />;
  }
  return (
    <Suspense fallback={<Loading />}>
      <Lazy {...props} />
    </Suspense>
  );
}

/** Fetches the charts' code ahead (while idle), so a screen with a chart does not wait on it after its data. */
export const preloadCharts = (): void => void load().catch(() => undefined);

export function FunnelChart(props: ComponentProps<typeof Charts.FunnelChart>) {
  return <ChunkChart pick={(charts) => charts.FunnelChart} Lazy={LazyFunnel} props={props} />;
}

export function TrendChart(props: ComponentProps<typeof Charts.TrendChart>) {
  return <ChunkChart pick={(charts) => charts.TrendChart} Lazy={LazyTrend} props={props} />;
}

export function PageDropOffChart(props: ComponentProps<typeof Charts.PageDropOffChart>) {
  return <ChunkChart pick={(charts) => charts.PageDropOffChart} Lazy={LazyDropOff} props={props} />;
}

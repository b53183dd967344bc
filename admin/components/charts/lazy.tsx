/**
 * The charts as a chunk of their own, fetched when a chart is first shown: screens and panels
 * render these, never ./Charts directly, so no chart code rides in the login screen's first
 * load nor in a screen that shows none.
 */
import { type ComponentType, lazy, Suspense } from 'react';
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

/** A chart that renders from the chunk once it is here, and until then suspends on fetching it. */
function lazyChart<P extends object>(pick: (charts: typeof Charts) => ComponentType<P>) {
  const Lazy = lazy(() => load().then((charts) => ({ default: pick(charts) })));
  return function LazyChart(props: P) {
    if (loaded) {
      const Chart = pick(loaded);
      return <Chart {...props} />;
    }
    return (
      <Suspense fallback={<Loading />}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

/** Fetches the charts' code ahead (while idle), so a screen with a chart does not wait on it after its data. */
export const preloadCharts = (): void => void load().catch(() => undefined);

export const FunnelChart = lazyChart((charts) => charts.FunnelChart);
export const TrendChart = lazyChart((charts) => charts.TrendChart);
export const PageDropOffChart = lazyChart((charts) => charts.PageDropOffChart);

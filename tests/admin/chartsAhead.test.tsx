/**
 * A chart whose code has arrived (fetched ahead while idle) shows in the same render as its
 * data: going through `lazy` again would suspend on the resolved import and React would hold the
 * fallback for its reveal throttle, a screen with its answers in hand showing "Loading…".
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { zeroFunnelCounts } from '@core/model/funnel';
import { FunnelChart, preloadCharts } from '../../admin/components/charts/lazy';

describe('charts fetched ahead', () => {
  it('render at once once their code is here, with no loading fallback', async () => {
    preloadCharts();
    // The idle prefetch's import settles (a dynamic import of a local module).
    await act(() => import('../../admin/components/charts/Charts'));
    await act(() => Promise.resolve());
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    act(() => root.render(<FunnelChart counts={zeroFunnelCounts()} label="Recruitment funnel" />));
    // No await between render and look: the chart is in the first commit.
    expect(host.querySelector('figure.funnel-chart')).not.toBeNull();
    expect(host.textContent).not.toContain('Loading…');
    act(() => root.unmount());
    host.remove();
  });
});

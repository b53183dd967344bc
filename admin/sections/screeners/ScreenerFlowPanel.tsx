/**
 * The screener's flow: its surveys as nodes and survey-to-survey transitions as edges
 * (GET /api/screener-surveys/flow/{id}), drawn with React Flow and an automatic layout.
 */
import { Suspense, lazy } from 'react';
import { screenersApi } from '@core/api/screeners';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';
import './screeners.css';

const FlowDiagram = lazy(() => import('./FlowDiagram'));

export function ScreenerFlowPanel({ screenerId }: { screenerId: string }) {
  const api = useApi(screenersApi);
  const flow = useAsync(() => api.flow(screenerId), [api, screenerId]);
  if (!flow.data || flow.data.nodes.length === 0) return null;
  return (
    <figure className="flow-diagram" aria-label="Screener flow">
      <Suspense fallback={<p className="muted">Loading the flow…</p>}>
        <FlowDiagram flow={flow.data} />
      </Suspense>
      <figcaption className="muted">Transitions between surveys appear once versioned surveys carry them.</figcaption>
    </figure>
  );
}

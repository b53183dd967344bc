/** The survey's flow drawn with React Flow, loaded on its own so the builder opens first. */
import { Background, Controls, MarkerType, ReactFlow, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { OFormPage } from '@core/api/oforms';
import { NODE_HEIGHT, NODE_WIDTH, layoutFlow } from '../screeners/flowLayout';
import { surveyGraph } from './flow';

export default function SurveyFlow({ pages }: { pages: readonly OFormPage[] }) {
  const graph = surveyGraph(pages);
  // Layers follow the longest path of next-page and jump edges, so a jump lands further right.
  const placed = layoutFlow({ nodes: graph.nodes, edges: graph.edges });
  const nodes: Node[] = placed.map(({ node, x, y }) => ({
    id: node.id,
    position: { x, y },
    data: { label: node.title },
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    className: `survey-flow-${node.kind}`,
    style: { width: NODE_WIDTH },
    sourcePosition: 'right' as Node['sourcePosition'],
    targetPosition: 'left' as Node['targetPosition'],
    draggable: false,
    connectable: false,
  }));
  const edges: Edge[] = graph.edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    label: e.label === null ? undefined : e.disqualifies ? `${e.label} (disqualifies)` : e.label,
    style: e.label === null ? { strokeDasharray: '4 4' } : e.disqualifies ? { stroke: '#b42318' } : undefined,
    markerEnd: { type: MarkerType.ArrowClosed },
  }));
  const height = Math.min(560, 120 + Math.max(0, ...nodes.map((n) => n.position.y)) + NODE_HEIGHT);
  return (
    <section className="panel" aria-label="Survey flow">
      <h2 className="section-title">Flow</h2>
      <div className="flow-canvas" style={{ height }}>
        <ReactFlow nodes={nodes} edges={edges} fitView nodesDraggable={false} nodesConnectable={false} proOptions={{ hideAttribution: true }}>
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
    </section>
  );
}

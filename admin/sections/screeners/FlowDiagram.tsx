/** The flow drawn with React Flow (loaded only when a screener has surveys). */
import { Background, Controls, ReactFlow, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { ScreenerFlow } from '@core/model/screenerSurvey';
import { NODE_HEIGHT, NODE_WIDTH, layoutFlow } from './flowLayout';

export default function FlowDiagram({ flow }: { flow: ScreenerFlow }) {
  const nodes: Node[] = layoutFlow(flow).map(({ node, x, y }) => ({
    id: node.id,
    position: { x, y },
    data: { label: node.title },
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    style: { width: NODE_WIDTH, opacity: node.isActive ? 1 : 0.55 },
    sourcePosition: 'right' as Node['sourcePosition'],
    targetPosition: 'left' as Node['targetPosition'],
    draggable: false,
    connectable: false,
  }));
  const edges: Edge[] = flow.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, animated: false }));
  return (
    <div className="flow-canvas" style={{ height: Math.min(480, 120 + Math.max(...nodes.map((n) => n.position.y)) + NODE_HEIGHT) }}>
      <ReactFlow nodes={nodes} edges={edges} fitView nodesDraggable={false} nodesConnectable={false} proOptions={{ hideAttribution: true }}>
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

/**
 * The logic view, drawn with React Flow and loaded on its own so the builder opens first. The
 * pages stand in one row in their order, each joined to the next; every branch (an option that
 * jumps) arcs above the row in a colour of its own, labelled by its option at the top of its
 * arc; every way out (a disqualifying option, an age range) curves below the row to
 * 'Disqualified'. Edges are drawn from the layout's own geometry, so none passes through a page
 * box, and the view opens fitted to all of it, arcs and labels included.
 */
import { BaseEdge, Controls, MarkerType, ReactFlow, type Edge, type EdgeProps, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { PageWithQuestions } from '@core/api/surveys';
import { END_NODE, OUT_NODE, surveyGraph, type FlowEdge } from './flow';

const W = 200;
const H = 56;
const GAP = 90;
const OUT_DROP = 170;
/** Distinct, dark enough on white for labels (contrast ≥ 4.5:1). */
const BRANCH_COLOURS = ['#1d4ed8', '#047857', '#7c3aed', '#b45309', '#0e7490', '#be185d', '#4d7c0f'];
const OUT_COLOUR = '#b42318';
const NEXT_COLOUR = '#667085';

interface PathData extends Record<string, unknown> {
  path: string;
  labelX: number;
  labelY: number;
}

function PathEdge({ id, data, label, markerEnd, style, labelStyle }: EdgeProps<Edge<PathData>>) {
  return (
    <BaseEdge
      id={id}
      path={data!.path}
      label={label}
      labelX={data!.labelX}
      labelY={data!.labelY}
      labelStyle={labelStyle}
      labelShowBg
      labelBgPadding={[4, 2]}
      labelBgBorderRadius={3}
      markerEnd={markerEnd}
      style={style}
    />
  );
}

/** An invisible point that makes fitView take in the arcs and labels beyond the boxes. */
function BoundNode() {
  return <span aria-hidden="true" />;
}

const edgeTypes = { path: PathEdge };
const nodeTypes = { bound: BoundNode };

const bezierAt = (t: number, a: number, b: number, c: number, d: number) => (1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t ** 2 * c + t ** 3 * d;

/** Nodes placed and edges drawn: exported for tests of the geometry. */
export function logicLayout(pages: readonly PageWithQuestions[]) {
  const graph = surveyGraph(pages);
  const row = graph.nodes.filter((n) => n.kind !== 'out');
  const x = new Map(row.map((n, i) => [n.id, i * (W + GAP)]));
  const pageCount = graph.nodes.filter((n) => n.kind === 'page').length;
  const outX = pageCount > 1 ? ((pageCount - 1) * (W + GAP)) / 2 : 0;
  x.set(OUT_NODE, outX);
  const y = (id: string) => (id === OUT_NODE ? H + OUT_DROP : 0);

  let branch = 0;
  const outs = new Map<string, number>();
  let top = 0;
  const edges: Edge<PathData>[] = graph.edges.map((e: FlowEdge) => {
    const sx = x.get(e.source)!;
    const tx = x.get(e.target)!;
    let path: string;
    let labelX = 0;
    let labelY = 0;
    let colour = NEXT_COLOUR;
    if (e.kind === 'next') {
      path = `M ${sx + W} ${H / 2} L ${tx} ${H / 2}`;
    } else if (e.kind === 'branch') {
      colour = e.disqualifies ? OUT_COLOUR : BRANCH_COLOURS[branch % BRANCH_COLOURS.length]!;
      const h = 70 + 34 * branch;
      const a = sx + W / 2 - 24 + (branch % 4) * 16;
      const b = tx + W / 2 + 24 - (branch % 4) * 16;
      path = `M ${a} 0 C ${a} ${-h} ${b} ${-h} ${b} 0`;
      labelX = (a + b) / 2;
      labelY = -0.75 * h;
      top = Math.min(top, labelY - 20);
      branch += 1;
    } else {
      colour = OUT_COLOUR;
      const k = outs.get(e.source) ?? 0;
      outs.set(e.source, k + 1);
      const a = sx + W / 2 - 30 + (k % 4) * 20;
      const b = outX + W / 2;
      const d = y(OUT_NODE);
      path = `M ${a} ${H} C ${a} ${H + 70} ${b} ${d - 70} ${b} ${d}`;
      const t = 0.3 + 0.2 * (k % 3);
      labelX = bezierAt(t, a, a, b, b);
      labelY = bezierAt(t, H, H + 70, d - 70, d);
    }
    const label = e.label === null ? undefined : e.kind === 'branch' && e.disqualifies ? `${e.label} (disqualifies)` : e.label;
    return {
      id: e.id,
      source: e.source,
      target: e.target,
      type: 'path',
      label,
      data: { path, labelX, labelY },
      className: `survey-flow-edge-${e.kind}`,
      style: { stroke: colour, strokeWidth: e.kind === 'next' ? 1.5 : 2, ...(e.kind === 'next' ? { strokeDasharray: '5 4' } : {}) },
      labelStyle: { fill: colour, fontWeight: 600 },
      markerEnd: { type: MarkerType.ArrowClosed, color: colour },
    };
  });

  const nodes: Node[] = graph.nodes.map((n) => ({
    id: n.id,
    position: { x: x.get(n.id)!, y: y(n.id) },
    data: { label: n.title },
    width: W,
    height: H,
    className: `survey-flow-${n.kind}`,
    style: { width: W, height: H },
    draggable: false,
    connectable: false,
    selectable: false,
  }));
  const right = Math.max(...nodes.map((n) => n.position.x + W));
  const bottom = graph.nodes.some((n) => n.id === OUT_NODE) ? H + OUT_DROP + H : H;
  for (const [id, bx, by] of [
    ['bound:top', 0, top],
    ['bound:bottom', right, bottom + 10],
  ] as const) {
    nodes.push({
      id,
      type: 'bound',
      position: { x: bx, y: by },
      data: {},
      width: 1,
      height: 1,
      draggable: false,
      connectable: false,
      selectable: false,
      className: 'survey-flow-bound',
    });
  }
  return { nodes, edges, width: right, height: bottom - top };
}

export { END_NODE };

export default function SurveyFlow({ pages }: { pages: readonly PageWithQuestions[] }) {
  const { nodes, edges, height } = logicLayout(pages);
  return (
    <section className="panel" aria-label="Survey logic">
      <h2 className="section-title">Logic</h2>
      <p className="muted">
        Pages in order; <span style={{ color: BRANCH_COLOURS[0] }}>branches</span> arc above, labelled by the option that takes them;{' '}
        <span style={{ color: OUT_COLOUR }}>ways out</span> (disqualifying options, age ranges) lead below to Disqualified.
      </p>
      <div className="flow-canvas" style={{ height: Math.max(260, Math.min(560, height + 80)) }}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          edgeTypes={edgeTypes}
          nodeTypes={nodeTypes}
          fitView
          fitViewOptions={{ padding: 0.08 }}
          minZoom={0.1}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          proOptions={{ hideAttribution: true }}
        >
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
    </section>
  );
}

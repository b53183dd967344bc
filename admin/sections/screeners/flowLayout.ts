/**
 * Automatic layout of a screener's flow: left to right, a column per step from the first
 * survey (the longest path of transitions leading to it), nodes 200 px wide (SPEC section 9).
 */
import type { ScreenerFlow } from '@core/model/screenerSurvey';

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 48;
const GAP_X = 80;
const GAP_Y = 24;

// Generic in the node so the versioned-survey diagram (pages as nodes) lays out the same way.
export function layoutFlow<
  N extends { id: string } = ScreenerFlow['nodes'][number],
  E extends { source: string; target: string } = ScreenerFlow['edges'][number],
>(flow: { nodes: readonly N[]; edges: readonly E[] }) {
  const ids = new Set(flow.nodes.map((n) => n.id));
  const edges = flow.edges.filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target);
  const outgoing = new Map<string, string[]>();
  for (const e of edges) outgoing.set(e.source, [...(outgoing.get(e.source) ?? []), e.target]);
  // A cycle (a survey leading back to an earlier one) is broken at its back edge, found by a
  // depth-first walk from the surveys nothing leads to, then from the rest in their order.
  const targets = new Set(edges.map((e) => e.target));
  const starts = [...flow.nodes.filter((n) => !targets.has(n.id)), ...flow.nodes.filter((n) => targets.has(n.id))].map((n) => n.id);
  const state = new Map<string, 'open' | 'done'>();
  const forward = new Map<string, string[]>();
  const walk = (id: string) => {
    state.set(id, 'open');
    for (const next of outgoing.get(id) ?? []) {
      if (state.get(next) === 'open') continue;
      forward.set(next, [...(forward.get(next) ?? []), id]);
      if (!state.has(next)) walk(next);
    }
    state.set(id, 'done');
  };
  for (const id of starts) if (!state.has(id)) walk(id);
  // Column: the longest path of forward edges leading to the node.
  const depth = new Map<string, number>();
  const column = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const d = Math.max(-1, ...(forward.get(id) ?? []).map(column)) + 1;
    depth.set(id, d);
    return d;
  };
  const rows = new Map<number, number>();
  return flow.nodes.map((node) => {
    const x = column(node.id);
    const row = rows.get(x) ?? 0;
    rows.set(x, row + 1);
    return { node, x: x * (NODE_WIDTH + GAP_X), y: row * (NODE_HEIGHT + GAP_Y) };
  });
}

/**
 * A version's flow as a graph: its pages in order (each leading to the next), and every
 * option's transition as a labelled edge to a page, the end, or another survey.
 */
import type { OFormPage } from '@core/api/oforms';

export interface FlowNode {
  id: string;
  title: string;
  kind: 'page' | 'end' | 'survey';
}
export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  label: string | null;
  disqualifies: boolean;
}

export const END_NODE = 'end';

export function surveyGraph(pages: readonly OFormPage[]): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const nodes: FlowNode[] = pages.map((p) => ({ id: p.identity, title: p.title, kind: 'page' }));
  const edges: FlowEdge[] = [];
  const extra = new Map<string, FlowNode>();
  pages.forEach((page, i) => {
    const next = pages[i + 1];
    if (next) edges.push({ id: `next:${page.identity}`, source: page.identity, target: next.identity, label: null, disqualifies: false });
    for (const field of page.fields) {
      for (const option of field.configuration.options) {
        const t = option.transition;
        if (!t) continue;
        let target: string;
        if (t.to === 'end') {
          target = END_NODE;
          extra.set(END_NODE, { id: END_NODE, title: 'End of survey', kind: 'end' });
        } else if (t.to === 'survey') {
          target = `survey:${t.identity}`;
          extra.set(target, { id: target, title: `Survey ${t.identity}`, kind: 'survey' });
        } else {
          target = t.identity;
        }
        edges.push({
          id: `${field.identity}:${option.value}`,
          source: page.identity,
          target,
          label: option.label,
          disqualifies: option.isDisqualified,
        });
      }
    }
  });
  const known = new Set([...nodes.map((n) => n.id), ...extra.keys()]);
  return { nodes: [...nodes, ...extra.values()], edges: edges.filter((e) => known.has(e.target)) };
}

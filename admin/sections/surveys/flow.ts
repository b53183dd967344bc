/**
 * A version's logic as a graph: its pages in order (each leading to the next, the last to the
 * end), every option's transition as an edge labelled by the option, and every way out: options
 * that disqualify and date-of-birth age ranges lead to 'Disqualified'.
 */
import type { PageWithQuestions } from '@core/api/surveys';
import { ageRange } from '@core/survey/rulesInWords';

export interface FlowNode {
  id: string;
  title: string;
  kind: 'page' | 'end' | 'survey' | 'out';
}
export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  /** The option that takes this way, or the rule; null for 'next page'. */
  label: string | null;
  disqualifies: boolean;
  kind: 'next' | 'branch' | 'out';
}

export const END_NODE = 'end';
export const OUT_NODE = 'disqualified';

export function surveyGraph(pages: readonly PageWithQuestions[]): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const nodes: FlowNode[] = pages.map((p) => ({ id: p.identity, title: p.title, kind: 'page' }));
  const edges: FlowEdge[] = [];
  const extra = new Map<string, FlowNode>();
  const end = () => extra.set(END_NODE, { id: END_NODE, title: 'End of survey', kind: 'end' });
  const out = () => extra.set(OUT_NODE, { id: OUT_NODE, title: 'Disqualified', kind: 'out' });
  pages.forEach((page, i) => {
    const next = pages[i + 1];
    if (next) edges.push({ id: `next:${page.identity}`, source: page.identity, target: next.identity, label: null, disqualifies: false, kind: 'next' });
    else {
      end();
      edges.push({ id: `next:${page.identity}`, source: page.identity, target: END_NODE, label: null, disqualifies: false, kind: 'next' });
    }
    for (const field of page.fields) {
      for (const option of field.configuration.options) {
        const t = option.transition;
        if (!t) {
          if (option.isDisqualified) {
            out();
            edges.push({
              id: `${field.identity}:${option.value}`,
              source: page.identity,
              target: OUT_NODE,
              label: option.label,
              disqualifies: true,
              kind: 'out',
            });
          }
          continue;
        }
        let target: string;
        if (t.to === 'end') {
          target = END_NODE;
          end();
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
          kind: 'branch',
        });
      }
      const range = field.oFormFieldTypeId === 'dob' ? ageRange(field.configuration.minAge, field.configuration.maxAge) : null;
      if (range) {
        out();
        edges.push({ id: `${field.identity}:age`, source: page.identity, target: OUT_NODE, label: `Age outside ${range}`, disqualifies: true, kind: 'out' });
      }
    }
  });
  const known = new Set([...nodes.map((n) => n.id), ...extra.keys()]);
  return { nodes: [...nodes, ...extra.values()], edges: edges.filter((e) => known.has(e.target)) };
}

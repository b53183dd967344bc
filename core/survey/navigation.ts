/**
 * Which page follows a page (issue decision where SPEC says "not shown"): the first transition
 * among the chosen options, questions in page order and options in their order, wins; with no
 * transition the next page by displayOrder follows; `end`, or leaving the last page, ends.
 */
import type { FieldType, OptionConfig } from '../model/survey';

export type Answer = string | string[] | boolean | null | undefined;

export interface NavField {
  identity: string;
  type: FieldType;
  displayOrder: number;
  options: readonly Pick<OptionConfig, 'value' | 'transition'>[];
}

export interface NavPage {
  identity: string;
  displayOrder: number;
}

export type Next = { to: 'page'; identity: string } | { to: 'end' } | { to: 'survey'; identity: string };

/** The option values an answer chose (one for single choices, several for 'multiple'). */
export const chosenValues = (answer: Answer): string[] => (Array.isArray(answer) ? answer : typeof answer === 'string' && answer !== '' ? [answer] : []);

export function nextPage(pages: readonly NavPage[], current: string, fields: readonly NavField[], answers: Readonly<Record<string, Answer>>): Next {
  const ordered = [...fields].sort((a, b) => a.displayOrder - b.displayOrder);
  for (const field of ordered) {
    const chosen = new Set(chosenValues(answers[field.identity]));
    for (const option of field.options) {
      if (chosen.has(option.value) && option.transition) return option.transition;
    }
  }
  const sorted = [...pages].sort((a, b) => a.displayOrder - b.displayOrder);
  const index = sorted.findIndex((p) => p.identity === current);
  const following = index >= 0 ? sorted[index + 1] : undefined;
  return following ? { to: 'page', identity: following.identity } : { to: 'end' };
}

/**
 * A question's rules in words, as the builder's outline and the survey's PDF state them:
 * which answers disqualify, where answers lead, and the age range a date of birth must fall in.
 * One wording for both, so what staff read while building is what an IRB reads in the packet.
 */
import type { FieldConfiguration, FieldType } from '../model/survey';

export interface RulePage {
  identity: string;
  title: string;
}

/** '18–65', '18 or older', '65 or younger', or null without either limit. */
export function ageRange(minAge: number | undefined, maxAge: number | undefined): string | null {
  if (minAge !== undefined && maxAge !== undefined) return `${minAge}–${maxAge}`;
  if (minAge !== undefined) return `${minAge} or older`;
  if (maxAge !== undefined) return `${maxAge} or younger`;
  return null;
}

/** Where an option's transition leads, in words: 'Page: Habits', 'End of survey', 'Survey X'. */
export function transitionInWords(transition: FieldConfiguration['options'][number]['transition'], pages: readonly RulePage[]): string | null {
  if (!transition) return null;
  if (transition.to === 'end') return 'End of survey';
  if (transition.to === 'survey') return `Survey ${transition.identity}`;
  const page = pages.find((p) => p.identity === transition.identity);
  return page ? `Page: ${page.title}` : 'A page no longer in the survey';
}

/**
 * Every rule of one question, one sentence each: 'Disqualifies: No', 'Yes → Page: Habits',
 * 'Age 18–65, else disqualified'.
 */
export function questionRules(type: FieldType, configuration: Pick<FieldConfiguration, 'options' | 'minAge' | 'maxAge'>, pages: readonly RulePage[]): string[] {
  const rules: string[] = [];
  const disqualifying = configuration.options.filter((o) => o.isDisqualified).map((o) => o.label);
  if (disqualifying.length) rules.push(`Disqualifies: ${disqualifying.join(', ')}`);
  for (const option of configuration.options) {
    const to = transitionInWords(option.transition, pages);
    if (to) rules.push(`${option.label} → ${to}`);
  }
  if (type === 'dob') {
    const range = ageRange(configuration.minAge, configuration.maxAge);
    if (range) rules.push(`Age ${range}, else disqualified`);
  }
  return rules;
}

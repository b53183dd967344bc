/**
 * Which pages cannot end a participant's run, whatever is answered on them: the widget shows the
 * page after such a page at once and confirms the save behind it (docs/participant-api.md). The
 * rule is conservative, so that a participant is never shown a page the server would not lead to:
 * a page can end the run when any of its questions has an option that disqualifies (for every
 * engagement or for one), a birth date with an age range, or an option with a transition (the
 * end, another survey, or another page: the widget cannot know ahead which page an answer leads
 * to), and when no active page follows it. What is unknown here (say a question type added
 * later with rules of its own) counts as "can end" by the first check.
 */
import { FIELD_TYPES } from '@core/model/kinds';
import { nextPage } from '@core/survey/navigation';
import type { ContainerRow } from '../surveys';
import type { Survey, SurveyField } from './survey';

/**
 * The question types this rule knows: every one in core's list, whose answers nothing but their
 * options' configuration (and a birth date's age range) can turn into an outcome. A type added
 * later is one this rule has not proven safe, so it can end the run until it is looked at here.
 */
const KNOWN_TYPES: ReadonlySet<string> = new Set<string>(FIELD_TYPES);

/** Whether any answer to `field` may end the run or lead elsewhere than the next page. */
function canEndOn(field: SurveyField): boolean {
  if (!KNOWN_TYPES.has(field.type)) return true;
  const { minAge, maxAge, options } = field.configuration;
  if (field.type === 'dob' && (minAge !== undefined || maxAge !== undefined)) return true;
  return options.some((o) => o.isDisqualified || (o.disqualifiedFor?.length ?? 0) > 0 || o.transition != null);
}

/**
 * The page that follows `page` whatever its answers, when nothing answered on it can end the run
 * (no disqualifying option, no age rule, no transition, not the last page); else null.
 */
export function pageAfterIfCannotEnd(survey: Pick<Survey, 'pages' | 'fields'>, page: ContainerRow): ContainerRow | null {
  if (!survey.pages.includes(page) || survey.fields.some((f) => f.pageId === page.id && canEndOn(f))) return null;
  // Without a transition on the page, every answer leads where none does: the next page in order.
  const next = nextPage(survey.pages, page.identity, [], {});
  return next.to === 'page' ? (survey.pages.find((p) => p.identity === next.identity) ?? null) : null;
}

/** Whether nothing answered on `page` can end the run (pageAfterIfCannotEnd's page exists). */
export const pageCannotEnd = (survey: Pick<Survey, 'pages' | 'fields'>, page: ContainerRow): boolean => pageAfterIfCannotEnd(survey, page) !== null;

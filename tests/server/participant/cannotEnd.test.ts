/**
 * The rule "this page cannot end the run" (server/participant/cannotEnd.ts), on surveys built in
 * memory: a page with a disqualifying option (for all engagements or one), an age rule or an
 * option's transition, and the last page, can end the run; plain pages cannot, and name the page
 * that follows them.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { FieldConfiguration, type FieldType } from '@core/model/survey';
import type { ContainerRow } from '../../../server/surveys';
import type { SurveyField } from '../../../server/participant/runSurvey';
import { pageAfterIfCannotEnd, pageCannotEnd } from '../../../server/participant/cannotEnd';

const container = (id: number, identity: string, displayOrder: number, extra: Partial<ContainerRow> = {}): ContainerRow => ({
  id,
  identity,
  oFormId: 1,
  title: identity,
  displayOrder,
  isActive: true,
  containerType: 'root_container',
  parentId: null,
  translations: {},
  ...extra,
});

const option = (value: string, extra: Record<string, unknown> = {}) => ({ value, label: value, ...extra });

let nextFieldId = 1;
const question = (pageId: number, type: FieldType, configuration: Record<string, unknown> = {}): SurveyField => ({
  id: nextFieldId,
  identity: `q${nextFieldId++}`,
  containerId: pageId,
  pageId,
  title: 'A question',
  type,
  displayOrder: nextFieldId,
  // Parsed as staff's writes are: the stored shape, defaults filled in.
  configuration: v.parse(FieldConfiguration, configuration),
});

const first = container(1, 'first', 1);
const second = container(2, 'second', 2);
const last = container(3, 'last', 3);
const pages = [first, second, last];
const survey = (fields: SurveyField[]) => ({ pages, fields });
const choice = (extra: Record<string, unknown>) => question(1, 'single', { options: [option('a'), option('b', extra)] });

describe('a page that cannot end the run', () => {
  it('is a page of plain questions with a page after it, and names that page', () => {
    const plain = survey([
      question(1, 'single', { options: [option('a'), option('b')] }),
      question(1, 'multiple', { options: [option('x'), option('y')] }),
      question(1, 'text', { required: true }),
      question(1, 'number'),
      question(1, 'zip'),
      question(1, 'dob'),
    ]);
    expect(pageCannotEnd(plain, first)).toBe(true);
    expect(pageAfterIfCannotEnd(plain, first)).toBe(second);
    // A page without questions too.
    expect(pageAfterIfCannotEnd(plain, second)).toBe(last);
  });

  it("follows the display order, past switched-off pages (which are not among the survey's pages)", () => {
    const later = container(4, 'later', 9);
    const reordered = { pages: [first, later, last].sort((a, b) => a.displayOrder - b.displayOrder), fields: [] };
    expect(pageAfterIfCannotEnd(reordered, first)).toBe(last);
    expect(pageAfterIfCannotEnd(reordered, last)).toBe(later);
    // A page not among the active pages follows nothing.
    expect(pageAfterIfCannotEnd(reordered, second)).toBeNull();
  });

  it('is not a page with an option that disqualifies, for every engagement or for one', () => {
    expect(pageCannotEnd(survey([choice({ isDisqualified: true })]), first)).toBe(false);
    expect(pageCannotEnd(survey([choice({ disqualifiedFor: [7] })]), first)).toBe(false);
    expect(pageCannotEnd(survey([question(1, 'yes_no', { options: [option('yes'), option('no', { isDisqualified: true })] })]), first)).toBe(false);
    // Questions of a child container count as the page's own.
    const child = { ...question(1, 'dropdown', { options: [option('a', { isDisqualified: true })] }), containerId: 11 };
    expect(pageCannotEnd(survey([child]), first)).toBe(false);
  });

  it('is not a page with an age rule', () => {
    expect(pageCannotEnd(survey([question(1, 'dob', { minAge: 18 })]), first)).toBe(false);
    expect(pageCannotEnd(survey([question(1, 'dob', { maxAge: 65 })]), first)).toBe(false);
  });

  it('is not a page whose answers branch: to the end, to another survey, or to another page', () => {
    expect(pageCannotEnd(survey([choice({ transition: { to: 'end' } })]), first)).toBe(false);
    expect(pageCannotEnd(survey([choice({ transition: { to: 'survey', identity: 'other' } })]), first)).toBe(false);
    expect(pageCannotEnd(survey([choice({ transition: { to: 'page', identity: 'last' } })]), first)).toBe(false);
  });

  it('is not the last page, whose answers end the survey', () => {
    expect(pageCannotEnd(survey([]), last)).toBe(false);
  });

  it("does not look at other pages' questions", () => {
    const elsewhere = survey([question(2, 'single', { options: [option('a', { isDisqualified: true })] }), question(1, 'text')]);
    expect(pageCannotEnd(elsewhere, first)).toBe(true);
    expect(pageCannotEnd(elsewhere, second)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { fieldConfiguration, type FieldConfiguration } from '@core/model/survey';
import { toFieldIssues } from '@core/model/fields';
import {
  NONE_OF_THE_ABOVE,
  densify,
  isDobOnlyPage,
  newOptionIndex,
  newPageTitle,
  optionsJumpingTo,
  pageInUseMessage,
  reorder,
  transitionTargets,
  withAuthoringDefaults,
  withNewOption,
} from '@core/survey/authoring';
import { nextPage, type NavField } from '@core/survey/navigation';
import { percentage, resetProgress, setProgress, startProgress, stepDown, stepUp } from '@core/survey/progress';
import { back, currentVisit, revisit, visit, type History } from '@core/survey/history';

const parse = (type: Parameters<typeof fieldConfiguration>[0], input: unknown) => v.safeParse(fieldConfiguration(type), input);
const pointers = (result: ReturnType<typeof parse>) =>
  result.success ? [] : toFieldIssues(result.issues, '/data/attributes/configuration').map((i) => `${i.pointer} ${i.detail}`);

describe('question configuration', () => {
  it('fills defaults for an empty configuration', () => {
    const result = parse('text', {});
    expect(result.success && result.output).toEqual({ required: false, helperText: null, translations: {}, options: [] });
  });

  it('accepts options with translations, disqualification and each kind of transition', () => {
    const result = parse('single', {
      required: true,
      options: [
        { label: 'Yes', value: 'yes', transition: { to: 'page', identity: 'p3' } },
        { label: 'No', value: 'no', isDisqualified: true, translations: { es: 'No' }, transition: { to: 'end' } },
        { label: 'Maybe', value: 'maybe', transition: { to: 'survey', identity: 'other-survey' } },
      ],
    });
    expect(result.success).toBe(true);
    if (result.success) expect(result.output.options[1]).toMatchObject({ isDisqualified: true, translations: { es: 'No' } });
  });

  it('points at the bad part of a configuration', () => {
    expect(pointers(parse('single', { options: [{ label: '', value: 'a' }] }))).toEqual([
      '/data/attributes/configuration/options/0/label This field is required.',
    ]);
    expect(pointers(parse('single', { options: [{ label: 'A', value: 'a', transition: { to: 'nowhere' } }] }))[0]).toMatch(
      /^\/data\/attributes\/configuration\/options\/0\/transition\/to /,
    );
    expect(
      pointers(
        parse('single', {
          options: [
            { label: 'A', value: 'a' },
            { label: 'B', value: 'a' },
          ],
        }),
      ),
    ).toEqual(['/data/attributes/configuration/options/1/value Each option needs a value of its own.']);
    expect(pointers(parse('text', { minLength: 5, maxLength: 2 }))).toEqual([
      '/data/attributes/configuration/maxLength The maximum length must not be below the minimum.',
    ]);
    expect(pointers(parse('dob', { minAge: 18, maxAge: 17 }))).toEqual([
      '/data/attributes/configuration/maxAge The maximum age must not be below the minimum age.',
    ]);
    expect(pointers(parse('date', { minDate: '2020-02-30' }))[0]).toMatch(/minDate/);
    expect(pointers(parse('text', { unknown: 1 }))[0]).toMatch(/configuration\/unknown/);
  });

  it('refuses limits and options a type does not have', () => {
    expect(pointers(parse('text', { options: [{ label: 'A', value: 'a' }] }))).toEqual([
      '/data/attributes/configuration/options A text question has no options.',
    ]);
    expect(pointers(parse('email', { minAge: 3 }))).toEqual(['/data/attributes/configuration/minAge A email question has no minAge.']);
    expect(parse('dob', { minAge: 18, maxAge: 65 }).success).toBe(true);
  });
});

describe('authoring rules', () => {
  const config = (options: FieldConfiguration['options'] = []): FieldConfiguration => ({ required: false, helperText: null, translations: {}, options });

  it('names new pages New Page N', () => {
    expect(newPageTitle(0)).toBe('New Page 1');
    expect(newPageTitle(2)).toBe('New Page 3');
  });

  it("adds new options before a last 'None of the Above', and last otherwise", () => {
    const o = (label: string, value = label.toLowerCase()) => ({ label, value });
    const none = o(NONE_OF_THE_ABOVE, 'none_of_the_above');
    expect(withNewOption([none], o('A')).map((x) => x.label)).toEqual(['A', NONE_OF_THE_ABOVE]);
    expect(withNewOption([o('A'), none], o('B')).map((x) => x.label)).toEqual(['A', 'B', NONE_OF_THE_ABOVE]);
    // Recognised by its label too, whatever its case, when staff typed it themselves.
    expect(newOptionIndex([o('A'), o('none of the above ', 'option_2')])).toBe(1);
    // Moved away from the end by staff: new options simply go last.
    expect(withNewOption([none, o('A')], o('B')).map((x) => x.label)).toEqual([NONE_OF_THE_ABOVE, 'A', 'B']);
    expect(newOptionIndex([])).toBe(0);
  });

  it("gives a 'multiple' question without options 'None of the Above', and only that case", () => {
    expect(withAuthoringDefaults('multiple', config()).options.map((o) => o.label)).toEqual([NONE_OF_THE_ABOVE]);
    expect(withAuthoringDefaults('multiple', config()).options[0]?.isDisqualified).toBe(false);
    const own = config([{ label: 'A', value: 'a', translations: {}, isDisqualified: false, transition: null }]);
    expect(withAuthoringDefaults('multiple', own).options.map((o) => o.label)).toEqual(['A']);
    expect(withAuthoringDefaults('single', config()).options).toEqual([]);
  });

  it('offers every page but the current one and those whose questions are all dob', () => {
    const pages = [
      { identity: 'p1', title: 'One', displayOrder: 1, fieldTypes: ['single'] as const },
      { identity: 'p3', title: 'Three', displayOrder: 3, fieldTypes: ['dob', 'text'] as const },
      { identity: 'p2', title: 'Two', displayOrder: 2, fieldTypes: ['dob', 'dob'] as const },
      { identity: 'p4', title: 'Four', displayOrder: 4, fieldTypes: [] as const },
    ];
    expect(transitionTargets(pages, 'p1').map((p) => p.identity)).toEqual(['p3', 'p4']);
  });

  it('calls a page date-of-birth only when it has questions and every one is dob (the rule the server checks too)', () => {
    expect(isDobOnlyPage(['dob', 'dob'])).toBe(true);
    expect(isDobOnlyPage(['dob', 'text'])).toBe(false);
    expect(isDobOnlyPage([])).toBe(false);
  });

  it('keeps displayOrder dense when reordering and after deletions', () => {
    const items = [
      { id: 'a', displayOrder: 1 },
      { id: 'b', displayOrder: 4 },
      { id: 'c', displayOrder: 7 },
    ];
    expect(densify(items).map((i) => [i.id, i.displayOrder])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    expect(reorder(items, 2, 0).map((i) => [i.id, i.displayOrder])).toEqual([
      ['c', 1],
      ['a', 2],
      ['b', 3],
    ]);
    expect(reorder(items, 0, 99).map((i) => i.id)).toEqual(['b', 'c', 'a']);
  });

  it('names the options that jump to a page before it may be deleted', () => {
    const fields = [
      {
        title: 'Age?',
        configuration: {
          options: [{ label: 'Under 18', value: 'u', translations: {}, isDisqualified: true, transition: { to: 'page' as const, identity: 'p3' } }],
        },
      },
      {
        title: 'Smoker?',
        configuration: { options: [{ label: 'Yes', value: 'y', translations: {}, isDisqualified: false, transition: { to: 'end' as const } }] },
      },
    ];
    const refs = optionsJumpingTo(fields, 'p3');
    expect(refs).toEqual([{ fieldTitle: 'Age?', optionLabel: 'Under 18' }]);
    expect(pageInUseMessage(refs)).toBe("This page cannot be deleted: 'Under 18' of 'Age?' jumps to it. Point that option elsewhere first.");
    expect(optionsJumpingTo(fields, 'p2')).toEqual([]);
  });
});

describe('next page', () => {
  const pages = [
    { identity: 'p1', displayOrder: 1 },
    { identity: 'p2', displayOrder: 2 },
    { identity: 'p3', displayOrder: 3 },
  ];
  const fields: NavField[] = [
    {
      identity: 'q2',
      type: 'multiple',
      displayOrder: 2,
      options: [
        { value: 'x', transition: { to: 'end' } },
        { value: 'y', transition: null },
      ],
    },
    {
      identity: 'q1',
      type: 'single',
      displayOrder: 1,
      options: [
        { value: 'jump', transition: { to: 'page', identity: 'p3' } },
        { value: 'stay', transition: null },
      ],
    },
  ];

  it('follows the first transition in page order', () => {
    expect(nextPage(pages, 'p1', fields, { q1: 'jump', q2: ['x'] })).toEqual({ to: 'page', identity: 'p3' });
    expect(nextPage(pages, 'p1', fields, { q1: 'stay', q2: ['y', 'x'] })).toEqual({ to: 'end' });
  });

  it('goes to the next page by displayOrder when no chosen option transitions, and ends after the last', () => {
    expect(nextPage(pages, 'p1', fields, { q1: 'stay', q2: ['y'] })).toEqual({ to: 'page', identity: 'p2' });
    expect(nextPage(pages, 'p3', [], {})).toEqual({ to: 'end' });
  });

  it('hands off to another survey', () => {
    const f: NavField[] = [{ identity: 'q', type: 'yes_no', displayOrder: 1, options: [{ value: 'yes', transition: { to: 'survey', identity: 'S2' } }] }];
    expect(nextPage(pages, 'p1', f, { q: 'yes' })).toEqual({ to: 'survey', identity: 'S2' });
  });
});

describe('progress', () => {
  it('moves by one within 0..containerCount and shows the floor of the percentage', () => {
    let p = startProgress(3);
    expect(percentage(p)).toBe(0);
    p = stepUp(p);
    expect(percentage(p)).toBe(33);
    p = stepUp(stepUp(stepUp(p)));
    expect(p.value).toBe(3);
    expect(percentage(p)).toBe(100);
    p = stepDown(p);
    expect(percentage(p)).toBe(66);
    expect(resetProgress(p).value).toBe(0);
    expect(stepDown(resetProgress(p)).value).toBe(0);
    expect(setProgress(p, 9).value).toBe(3);
    expect(percentage(startProgress(0))).toBe(0);
    expect(percentage(setProgress(startProgress(7), 1))).toBe(14);
  });
});

describe('page history', () => {
  it('pops on back and discards later pages on revisit', () => {
    let h: History = [];
    h = visit(h, { page: 'p1', entryId: 'e1' });
    expect(back(h)).toEqual({ history: h, left: null });
    h = visit(visit(visit(h, { page: 'p2', entryId: 'e2' }), { page: 'p3', entryId: 'e3' }), { page: 'p4', entryId: 'e4' });
    const popped = back(h);
    expect(popped.left).toEqual({ page: 'p4', entryId: 'e4' });
    expect(currentVisit(popped.history)).toEqual({ page: 'p3', entryId: 'e3' });
    const again = revisit(h, 1);
    expect(again.history.map((x) => x.page)).toEqual(['p1', 'p2']);
    expect(again.discarded.map((x) => x.entryId)).toEqual(['e3', 'e4']);
    expect(revisit(h, 9)).toEqual({ history: h, discarded: [] });
  });
});

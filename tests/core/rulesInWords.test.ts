import { describe, expect, it } from 'vitest';
import { withAuthoringDefaults } from '@core/survey/authoring';
import { ageRange, questionRules } from '@core/survey/rulesInWords';

const option = (label: string, extra: Record<string, unknown> = {}) => ({
  label,
  value: label.toLowerCase(),
  translations: {},
  isDisqualified: false,
  transition: null,
  ...extra,
});
const pages = [{ identity: 'p3', title: 'Where you live' }];

describe('rules in words', () => {
  it('names disqualifying answers, branches and age ranges as the outline and the PDF say them', () => {
    expect(
      questionRules(
        'single',
        {
          options: [
            option('Fewer than 4 days', { isDisqualified: true }),
            option('Yes', { transition: { to: 'page', identity: 'p3' } }),
            option('Stop', { transition: { to: 'end' } }),
          ],
        },
        pages,
      ),
    ).toEqual(['Disqualifies: Fewer than 4 days', 'Yes → Page: Where you live', 'Stop → End of survey']);
    expect(questionRules('dob', { options: [], minAge: 18, maxAge: 65 }, pages)).toEqual(['Age 18–65, else disqualified']);
    expect(questionRules('dob', { options: [] }, pages)).toEqual([]);
    expect([ageRange(18, undefined), ageRange(undefined, 65), ageRange(undefined, undefined)]).toEqual(['18 or older', '65 or younger', null]);
  });

  it('gives a yes/no question Yes and No when it has no options, and keeps its own', () => {
    const bare = { required: false, helperText: null, translations: {}, options: [] };
    expect(withAuthoringDefaults('yes_no', bare).options.map((o) => [o.label, o.value])).toEqual([
      ['Yes', 'yes'],
      ['No', 'no'],
    ]);
    expect(withAuthoringDefaults('yes_no', { ...bare, options: [option('Sí')] }).options.map((o) => o.label)).toEqual(['Sí']);
  });
});

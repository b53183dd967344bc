import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { FIELD_TYPES, configurationFor, fieldConfiguration, limitKeys, type FieldConfiguration } from '@core/model/survey';

const base: FieldConfiguration = {
  required: true,
  helperText: 'Pick one',
  translations: { es: { title: '¿Fuma?' } },
  minLength: 2,
  maxLength: 40,
  options: [{ label: 'Yes', value: 'yes', translations: {}, isDisqualified: true, transition: { to: 'end' } }],
};

describe('changing a question’s type', () => {
  it('keeps what every type has and what the new type uses, and the result is valid for it', () => {
    expect(configurationFor('text', base)).toEqual({
      required: true,
      helperText: 'Pick one',
      translations: { es: { title: '¿Fuma?' } },
      minLength: 2,
      maxLength: 40,
      options: [],
    });
    expect(configurationFor('single', base)).toEqual({
      required: true,
      helperText: 'Pick one',
      translations: { es: { title: '¿Fuma?' } },
      options: base.options,
    });
    for (const type of FIELD_TYPES) expect(v.safeParse(fieldConfiguration(type), configurationFor(type, base)).success).toBe(true);
  });

  it('names the limits each type may set', () => {
    expect(limitKeys('text')).toEqual(['minLength', 'maxLength']);
    expect(limitKeys('dob')).toEqual(['minAge', 'maxAge']);
    expect(limitKeys('single')).toEqual([]);
    expect(limitKeys('email')).toEqual([]);
  });
});

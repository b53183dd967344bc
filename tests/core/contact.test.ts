import { describe, expect, it } from 'vitest';
import { ACCEPT_TERMS, checkContact, contactFieldRules, contactValues, type ContactFormField } from '@core/survey/contact';
import { message } from '@core/validation/messages';
import { normalizeUsPhone } from '@core/validation/rules';

const FIELDS: ContactFormField[] = [
  { name: 'first_name', fieldType: 'text', required: true },
  { name: 'email', fieldType: 'email', required: true },
  { name: 'phone', fieldType: 'phone', required: false },
  { name: 'zip_code', fieldType: 'zip', required: false },
  { name: 'birthday', fieldType: 'date', required: false },
  { name: 'contact_consent', fieldType: 'checkbox', required: true },
];

describe('the contact form checks', () => {
  it('accepts a complete form and stores trimmed text and booleans', () => {
    const values = {
      first_name: '  Ada ',
      email: 'ada@example.com',
      phone: '',
      zip_code: '10001',
      birthday: '1980-06-15',
      contact_consent: 'on',
      other: 'ignored',
    };
    expect(checkContact(FIELDS, values, true)).toEqual({});
    expect(contactValues(FIELDS, values)).toEqual({
      first_name: 'Ada',
      email: 'ada@example.com',
      zip_code: '10001',
      birthday: '1980-06-15',
      contact_consent: true,
    });
  });

  it('names each problem by field, and the consent under acceptTerms, in the participant language', () => {
    const problems = checkContact(
      FIELDS,
      { first_name: ['x'], email: 'nope', phone: '555', zip_code: '1234', birthday: '15/06/1980', contact_consent: false },
      'true',
      'es',
    );
    expect(problems).toEqual({
      first_name: message('required', {}, 'es'),
      email: message('email', {}, 'es'),
      phone: message('us_phone', {}, 'es'),
      zip_code: message('postal', {}, 'es'),
      birthday: message('date_format', {}, 'es'),
      contact_consent: message('required', {}, 'es'),
      [ACCEPT_TERMS]: 'Debe aceptar los términos y condiciones para continuar.',
    });
    expect(checkContact([], {}, false)[ACCEPT_TERMS]).toBe('You must accept the terms and conditions in order to proceed.');
  });

  it('bounds every text value', () => {
    expect(contactFieldRules({ name: 'x', fieldType: 'text', required: false })).toContainEqual({ rule: 'max', length: 255 });
    expect(checkContact([{ name: 'x', fieldType: 'text', required: false }], { x: 'a'.repeat(256) }, true)).toEqual({ x: message('max', { length: 255 }) });
  });
});

describe('a phone typed in a common US way', () => {
  it('is written 000-000-0000 by one rule, for the checks and for what is stored', () => {
    for (const typed of [
      '(212) 555-0100',
      '212.555.0100',
      '212 555 0100',
      '2125550100',
      '+1 212-555-0100',
      '1-212-555-0100',
      ' 212-555-0100 ',
      '+1 (212) 555 0100',
    ]) {
      expect(normalizeUsPhone(typed.trim()), typed).toBe('212-555-0100');
      expect(checkContact(FIELDS, { first_name: 'Ada', email: 'ada@example.com', phone: typed, contact_consent: true }, true), typed).toEqual({});
      expect(contactValues(FIELDS, { phone: typed }).phone, typed).toBe('212-555-0100');
    }
  });

  it('refuses what is no US number, kept as typed, with the format to use', () => {
    for (const typed of ['555-0100', '212-555-01000', '2-212-555-0100', 'call 212 555 0100', '212-555-O100', '+44 20 7946 0958']) {
      expect(normalizeUsPhone(typed), typed).toBe(typed);
      expect(checkContact(FIELDS, { first_name: 'Ada', email: 'ada@example.com', phone: typed, contact_consent: true }, true), typed).toEqual({
        phone: message('us_phone'),
      });
    }
  });
});

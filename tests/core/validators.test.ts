import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { message } from '@core/validation/messages';
import { daysInMonth } from '@core/validation/isoDate';
import {
  hasMaxLength,
  hasMinLength,
  isAccepted,
  isColorHex,
  isDateFormat,
  isEmail,
  isNumeric,
  isPresent,
  isTotpCode,
  isUsPhone,
  parseDateText,
} from '@core/validation/rules';
import { validateFields, validateValue } from '@core/validation/validate';
import { dateText, lengthText } from '@core/model/fields';
import { LanguageInput } from '@core/model/language';
import { ContactFieldInput, ContactFieldPatch } from '@core/model/contactField';
import { GenericMessagePatch } from '@core/model/genericMessage';
import { ChangePasswordInput, UserInput, UserPatch } from '@core/model/user';
import { isApiIsoCode, normalizeIsoCode } from '@core/i18n';

describe('required and acceptTerms', () => {
  it.each([
    ['x', true],
    [' x ', true],
    [0, true],
    [true, true],
    ['', false],
    ['   ', false],
    [null, false],
    [undefined, false],
    [false, false],
  ] as const)('isPresent(%o) is %s', (value, expected) => expect(isPresent(value)).toBe(expected));

  it.each([
    [true, true],
    ['true', true],
    ['on', true],
    [false, false],
    ['', false],
    [undefined, false],
    ['yes please', false],
  ] as const)('isAccepted(%o) is %s', (value, expected) => expect(isAccepted(value)).toBe(expected));
});

describe('email, us_phone, numeric', () => {
  it.each([
    ['jane@example.com', true],
    ['j.doe+tag@sub.example.co.uk', true],
    ['a@b.c', true],
    ['jane@example', false],
    ['jane example.com', false],
    ['jane@@example.com', false],
    ['@example.com', false],
    ['jane@ex ample.com', false],
    ['a@b.co', true],
    ['a@b', false],
    ['a b@c.de', false],
    ['', false],
  ])('isEmail(%s) is %s', (value, expected) => expect(isEmail(value)).toBe(expected));

  it.each([
    ['555-123-4567', true],
    ['000-000-0000', true],
    ['555-123-456', false],
    ['555-123-45678', false],
    ['5551234567', false],
    ['(555) 123-4567', false],
    ['555 123 4567', false],
    ['abc-def-ghij', false],
  ])('isUsPhone(%s) is %s', (value, expected) => expect(isUsPhone(value)).toBe(expected));

  it.each([
    ['0', true],
    ['0123456789', true],
    ['', false],
    ['-1', false],
    ['1.5', false],
    ['1e3', false],
    [' 12', false],
    ['0123', true],
    ['12a', false],
  ])('isNumeric(%s) is %s', (value, expected) => expect(isNumeric(value)).toBe(expected));
});

describe('totp code: six digits', () => {
  it.each([
    ['123456', true],
    ['12345', false],
  ])('isTotpCode(%s) is %s', (value, expected) => expect(isTotpCode(value)).toBe(expected));
});

describe('min and max', () => {
  it('counts characters with both ends inclusive', () => {
    expect(hasMinLength('abc', 3)).toBe(true);
    expect(hasMinLength('ab', 3)).toBe(false);
    expect(hasMinLength('', 0)).toBe(true);
    expect(hasMaxLength('abc', 3)).toBe(true);
    expect(hasMaxLength('abcd', 3)).toBe(false);
    expect(hasMaxLength('', 0)).toBe(true);
  });
});

describe('color_hex: 6 or 2 hex characters', () => {
  it.each([
    ['CCCCCC', true],
    ['0a1B2c', true],
    ['FF', true],
    ['ff', true],
    ['#FFF', false],
    ['FFF', false],
    ['fff', false],
    ['#FFFFFF', false],
    ['#ffffff', false],
    ['F', false],
    ['FFFFFFF', false],
    ['GGGGGG', false],
    ['', false],
  ])('isColorHex(%s) is %s', (value, expected) => expect(isColorHex(value)).toBe(expected));
});

describe('date_format', () => {
  it.each([
    ['01/31/2020', true],
    ['1/5/2020', true],
    ['02/29/2020', true],
    ['02/29/2000', true],
    ['12/31/9999', true],
    ['01/01/1001', true],
    ['02/30/2020', false],
    ['02/29/2021', false],
    ['02/29/1900', false],
    ['04/31/2020', false],
    ['13/01/2020', false],
    ['00/10/2020', false],
    ['01/00/2020', false],
    ['01/01/0999', false],
    ['01/01/1000', false],
    ['01/01/20', false],
    ['2020-01-31', false],
    ['31/01/2020', false],
    ['01-31-2020', false],
    ['', false],
    ['not a date', false],
  ])('in English, %s is %s', (value, expected) => expect(isDateFormat(value)).toBe(expected));

  it("follows the locale's short format: day first in Spanish and German", () => {
    expect(isDateFormat('31/01/2020', { locale: 'es' })).toBe(true);
    expect(isDateFormat('01/31/2020', { locale: 'es' })).toBe(false);
    expect(isDateFormat('30/02/2020', { locale: 'es-MX' })).toBe(false);
    expect(isDateFormat('31.01.2020', { locale: 'de' })).toBe(true);
    expect(isDateFormat('31/01/2020', { locale: 'de' })).toBe(false);
    expect(parseDateText('31/01/2020', { locale: 'es' })).toEqual({ year: 2020, month: 1, day: 31 });
    expect(parseDateText('01/31/2020', { locale: 'en-US' })).toEqual({ year: 2020, month: 1, day: 31 });
  });

  it('reads y-MM-dd in UTC mode, whatever the locale', () => {
    expect(isDateFormat('2020-02-29', { utc: true })).toBe(true);
    expect(isDateFormat('2020-02-30', { utc: true })).toBe(false);
    expect(isDateFormat('0999-01-01', { utc: true })).toBe(false);
    expect(isDateFormat('1001-01-01', { utc: true })).toBe(true);
    expect(isDateFormat('2020-2-3', { utc: true })).toBe(false);
    expect(isDateFormat('02/29/2020', { utc: true })).toBe(false);
    expect(isDateFormat('2020-01-31', { utc: true, locale: 'es' })).toBe(true);
  });

  it('knows month lengths and leap years', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2023, m))).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2400, 2)).toBe(29);
  });

  it('falls back to English for an unknown locale', () => {
    expect(isDateFormat('01/31/2020', { locale: 'not-a-locale-at-all' })).toBe(true);
  });
});

describe('validateValue', () => {
  it('answers the first broken rule in the language asked, and null when all pass', () => {
    expect(validateValue('', ['required', 'email'])).toBe('This field is required.');
    expect(validateValue('x', ['required', 'email'])).toBe('Must be a valid email format.');
    expect(validateValue('x@y.zz', ['required', 'email'])).toBeNull();
    expect(validateValue('', ['required'], 'es')).toBe('Este campo es obligatorio.');
    expect(validateValue(false, ['acceptTerms'])).toBe('You must accept the terms and conditions in order to proceed.');
    expect(validateValue(true, ['acceptTerms'])).toBeNull();
    expect(validateValue('ab', [{ rule: 'min', length: 3 }])).toBe('Minimum 3 characters.');
    expect(validateValue('abcd', [{ rule: 'max', length: 3 }], 'es')).toBe('Máximo 3 caracteres.');
    expect(validateValue('12a', ['numeric'])).toBe('Must only contain numbers.');
    expect(validateValue('5551234567', ['us_phone'])).toBe('Must match the format 000-000-0000.');
    expect(validateValue('#FFF', ['color_hex'])).toBe('Must be 6 or 2 hex characters.');
    expect(validateValue('02/30/2020', [{ rule: 'date_format' }])).toBe('Must match format mm/dd/yyyy.');
    expect(validateValue('2020-02-28', [{ rule: 'date_format', utc: true }])).toBeNull();
    // Spanish forms read dates day first.
    expect(validateValue('28/02/2020', [{ rule: 'date_format' }], 'es')).toBeNull();
  });

  it('lets optional fields stay empty: only required and acceptTerms look at blanks', () => {
    expect(validateValue('', ['email', 'us_phone', 'numeric', 'color_hex', { rule: 'min', length: 3 }, { rule: 'date_format' }])).toBeNull();
    expect(validateValue(undefined, ['email'])).toBeNull();
  });

  it('validates a whole form', () => {
    expect(
      validateFields(
        { email: 'x', phone: '555-123-4567', terms: false },
        { email: ['required', 'email'], phone: ['us_phone'], terms: ['acceptTerms'], name: ['required'] },
      ),
    ).toEqual({
      email: 'Must be a valid email format.',
      terms: 'You must accept the terms and conditions in order to proceed.',
      name: 'This field is required.',
    });
  });

  it('has every SPEC message in English and Spanish', () => {
    expect(message('acceptTerms', {}, 'es')).toBe('Debe aceptar los términos y condiciones para continuar.');
    expect(message('date_format')).toBe('Must match format mm/dd/yyyy.');
    expect(message('color_hex', {}, 'es')).toBe('Debe tener 6 o 2 caracteres hexadecimales.');
  });
});

describe('schemas built on the rules', () => {
  it('lengthText and dateText carry the rule messages', () => {
    expect(v.safeParse(lengthText(8, 10), 'short').issues?.[0]?.message).toBe('Minimum 8 characters.');
    expect(v.safeParse(lengthText(8, 10), 'far too long here').issues?.[0]?.message).toBe('Maximum 10 characters.');
    expect(v.parse(dateText(), ' 02/29/2020 ')).toBe('02/29/2020');
    expect(v.safeParse(dateText(), '02/30/2020').issues?.[0]?.message).toBe('Must match format mm/dd/yyyy.');
    expect(v.safeParse(dateText({ utc: true }), '2020-02-29').success).toBe(true);
  });

  it('UserInput: username format, initial password length, optional e-mail, locale code', () => {
    const ok = v.parse(UserInput, { username: ' jane.doe ', password: 'long-enough', email: '', locale: 'es-MX' });
    expect(ok).toEqual({ username: 'jane.doe', password: 'long-enough', email: null, isActive: true, locale: 'es_MX' });
    const bad = v.safeParse(UserInput, { username: 'ja', password: 'short', email: 'x' });
    expect(bad.success).toBe(false);
    expect(bad.issues?.map((i) => i.path?.[0]?.key)).toEqual(['username', 'email', 'password']);
    expect(v.parse(UserPatch, { isActive: false })).toEqual({ isActive: false });
    expect(v.safeParse(UserPatch, { username: 'x' }).success).toBe(false);
    expect(v.safeParse(ChangePasswordInput, { currentPassword: '', password: 'long-enough' }).success).toBe(false);
  });

  it('LanguageInput normalises either code form to the API form', () => {
    expect(v.parse(LanguageInput, { name: 'x', description: 'y', isoCode: 'ES-mx' }).isoCode).toBe('es_MX');
    expect(v.parse(LanguageInput, { name: 'x', description: 'y', isoCode: 'zh-hant-tw' }).isoCode).toBe('zh_Hant_TW');
    expect(v.safeParse(LanguageInput, { name: 'x', description: 'y', isoCode: 'e' }).success).toBe(false);
    expect(normalizeIsoCode('EN')).toBe('en');
    expect(isApiIsoCode('es_MX')).toBe(true);
    expect(isApiIsoCode('es-MX')).toBe(false);
  });

  it('ContactFieldInput defaults fieldType and required; a patch names only what it changes', () => {
    expect(v.parse(ContactFieldInput, { label: 'City', name: 'city' })).toEqual({
      label: 'City',
      name: 'city',
      required: false,
      fieldType: 'text',
      translations: {},
    });
    expect(v.parse(ContactFieldPatch, { label: 'Town' })).toEqual({ label: 'Town' });
    expect(v.safeParse(ContactFieldInput, { label: 'x', name: 'Bad Name' }).success).toBe(false);
  });

  it('translations drop blank texts and refuse codes in the interface form', () => {
    expect(v.parse(GenericMessagePatch, { translations: { es: ' Hola ', es_MX: '', fr: null } })).toEqual({ translations: { es: 'Hola' } });
    expect(v.safeParse(GenericMessagePatch, { translations: { 'es-MX': 'Hola' } }).success).toBe(false);
  });
});

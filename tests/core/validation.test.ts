import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { message } from '@core/validation/messages';
import { SponsorInput, SponsorPatch } from '@core/model/sponsor';
import { LoginInput } from '@core/model/user';
import { issuesByField, toFieldIssues } from '@core/model/fields';
import { fallbackIsoCode, toApiIsoCode, toUiIsoCode } from '@core/i18n';

describe('message catalogue', () => {
  it('has the SPEC texts and fills placeholders', () => {
    expect(message('required')).toBe('This field is required.');
    expect(message('us_phone')).toBe('Must match the format 000-000-0000.');
    expect(message('min', { length: 3 })).toBe('Minimum 3 characters.');
    expect(message('max', { length: 9 }, 'es')).toBe('Máximo 9 caracteres.');
    expect(message('required', {}, 'es-MX')).toBe('Este campo es obligatorio.');
    expect(message('required', {}, 'fr')).toBe('This field is required.');
  });
});

describe('SponsorInput', () => {
  it('trims, defaults isActive and turns blank optionals into null', () => {
    const out = v.parse(SponsorInput, { name: ' Acme ', identification: 'A1', description: '  ' });
    expect(out).toEqual({ name: 'Acme', identification: 'A1', description: null, isActive: true });
  });
  it('reports each bad field with its message and pointer', () => {
    const result = v.safeParse(SponsorInput, { name: '  ', identification: 'x'.repeat(65), unknown: true });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(issuesByField(result.issues)).toMatchObject({ name: 'This field is required.', identification: 'Maximum 64 characters.' });
    const pointers = toFieldIssues(result.issues, '/data/attributes').map((i) => i.pointer);
    expect(pointers).toContain('/data/attributes/unknown');
  });
  it('lets a patch name only some attributes', () => {
    expect(v.parse(SponsorPatch, { isActive: false })).toEqual({ isActive: false });
  });
});

describe('LoginInput', () => {
  it('accepts an empty or six-digit code and refuses others', () => {
    expect(v.safeParse(LoginInput, { username: 'a', password: 'b', code: '' }).success).toBe(true);
    expect(v.safeParse(LoginInput, { username: 'a', password: 'b', code: '123456' }).success).toBe(true);
    expect(v.safeParse(LoginInput, { username: 'a', password: 'b', code: '1234' }).success).toBe(false);
    expect(v.safeParse(LoginInput, { username: '', password: 'b' }).success).toBe(false);
  });
});

describe('language codes', () => {
  it('converts between the interface and API forms and derives the fallback', () => {
    expect(toApiIsoCode('es-MX')).toBe('es_MX');
    expect(toUiIsoCode('es_MX')).toBe('es-MX');
    expect(fallbackIsoCode('es_MX')).toBe('es');
    expect(fallbackIsoCode('en')).toBe('en');
  });
});

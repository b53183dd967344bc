import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { contactFields, genericMessages, languages } from '../../server/db/schema';
import { LANGUAGE_MESSAGES } from '../../server/languages/translations';
import { CONTACT_FIELD_NAME_TAKEN } from '../../server/contact-fields/routes';
import { useAdminHarness, json, type Harness } from './harness';

let h: Harness;
let admin: string;

const resource = (type: string, attributes: Record<string, unknown>, id?: string) => ({ data: { type, ...(id ? { id } : {}), attributes } });
const rows = async (table: typeof languages | typeof contactFields) => (await h.db.select({ n: count() }).from(table))[0]?.n;
const messageByKey = async (keyName: string) => (await h.db.select().from(genericMessages).where(eq(genericMessages.keyName, keyName)))[0]!;
const pointers = (doc: { errors: { source?: { pointer?: string } }[] }) => doc.errors.map((e) => e.source?.pointer);

useAdminHarness((server) => ({ h, admin } = server));

describe('languages', () => {
  it('lists the seeded English (default) and Spanish, sorted by description, limit 1000 by default', async () => {
    const res = await h.request('GET', '/api/languages', { token: admin });
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc.meta).toMatchObject({ total: 2, limit: 1000, page: 1 });
    expect(doc.data.map((l: { attributes: { isoCode: string } }) => l.attributes.isoCode)).toEqual(['en', 'es']);
    expect(doc.data[0].attributes).toMatchObject({ name: 'English', description: 'English', isActive: true, isDefault: true });
    expect(doc.data[1].attributes).toMatchObject({ name: 'Español', description: 'Spanish', isDefault: false });
    const fields = await json(await h.request('GET', '/api/languages?fields=isoCode,name&sort=-isoCode', { token: admin }));
    expect(fields.data[0].attributes).toEqual({ isoCode: 'es', name: 'Español' });
  });

  it('creates from either code form, stores the API form, and refuses a duplicate code', async () => {
    const res = await h.request('POST', '/api/languages', {
      token: admin,
      body: resource('languages', { name: 'Español (México)', description: 'Spanish (Mexico)', isoCode: 'es-mx' }),
    });
    expect(res.status).toBe(201);
    const doc = await json(res);
    expect(doc.data.attributes).toMatchObject({ isoCode: 'es_MX', isActive: true, isDefault: false });

    const before = await rows(languages);
    const dup = await h.request('POST', '/api/languages', {
      token: admin,
      body: resource('languages', { name: 'Dup', description: 'Dup', isoCode: 'ES_mx' }),
    });
    expect(dup.status).toBe(409);
    expect((await json(dup)).errors[0]).toMatchObject({ detail: LANGUAGE_MESSAGES.isoCodeTaken, source: { pointer: '/data/attributes/isoCode' } });
    expect(await rows(languages)).toBe(before);

    const read = await json(await h.request('GET', `/api/languages/${doc.data.id}`, { token: admin }));
    expect(read.data.attributes.description).toBe('Spanish (Mexico)');
  });

  it('answers bad bodies with 422 and pointers, writing nothing', async () => {
    const before = await rows(languages);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', description: 'X', isoCode: 'fr' }, '/data/attributes/name'],
      [{ name: 'X', description: 'X', isoCode: 'french!' }, '/data/attributes/isoCode'],
      [{ name: 'X', description: 'X' }, '/data/attributes/isoCode'],
      [{ name: 'X', description: 'X', isoCode: 'fr', isActive: 'yes' }, '/data/attributes/isActive'],
      [{ name: 'X', description: 'X', isoCode: 'fr', isDefault: true }, '/data/attributes/isDefault'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await h.request('POST', '/api/languages', { token: admin, body: resource('languages', attributes) });
      expect(res.status, pointer).toBe(422);
      expect(pointers(await json(res))).toContain(pointer);
    }
    expect((await h.request('POST', '/api/languages', { token: admin, body: resource('sponsors', { name: 'X' }) })).status).toBe(409);
    expect(await rows(languages)).toBe(before);
  });

  it('protects the default language: always active, same code, never deleted', async () => {
    const [en] = await h.db.select().from(languages).where(eq(languages.isoCode, 'en'));
    const id = String(en!.id);
    const off = await h.request('PATCH', `/api/languages/${id}`, { token: admin, body: resource('languages', { isActive: false }, id) });
    expect(off.status).toBe(422);
    expect((await json(off)).errors[0].detail).toBe(LANGUAGE_MESSAGES.defaultAlwaysActive);
    const recode = await h.request('PATCH', `/api/languages/${id}`, { token: admin, body: resource('languages', { isoCode: 'en_US' }, id) });
    expect(recode.status).toBe(422);
    const del = await h.request('DELETE', `/api/languages/${id}`, { token: admin });
    expect(del.status).toBe(409);
    expect((await json(del)).errors[0].detail).toBe(LANGUAGE_MESSAGES.defaultUndeletable);
    const renamed = await h.request('PATCH', `/api/languages/${id}`, { token: admin, body: resource('languages', { description: 'English (default)' }, id) });
    expect(renamed.status).toBe(200);
    expect((await h.db.select().from(languages).where(eq(languages.id, en!.id)))[0]).toMatchObject({ isActive: true, isoCode: 'en' });
  });

  it('moves the translations stored under a code when the code changes', async () => {
    const created = await json(
      await h.request('POST', '/api/languages', { token: admin, body: resource('languages', { name: 'Français', description: 'French', isoCode: 'fr' }) }),
    );
    const next = await messageByKey('button_next');
    await h.request('PATCH', `/api/generic-messages/${next.id}`, {
      token: admin,
      body: resource('generic-messages', { translations: { ...next.translations, fr: 'Suivant' } }, String(next.id)),
    });
    const res = await h.request('PATCH', `/api/languages/${created.data.id}`, {
      token: admin,
      body: resource('languages', { isoCode: 'fr-CA' }, created.data.id),
    });
    expect(res.status).toBe(200);
    expect((await json(res)).data.attributes.isoCode).toBe('fr_CA');
    expect((await messageByKey('button_next')).translations).toEqual({ es: 'Siguiente', fr_CA: 'Suivant' });

    const del = await h.request('DELETE', `/api/languages/${created.data.id}`, { token: admin });
    expect(del.status).toBe(204);
    expect((await h.request('GET', `/api/languages/${created.data.id}`, { token: admin })).status).toBe(404);
    expect((await h.request('DELETE', `/api/languages/${created.data.id}`, { token: admin })).status).toBe(404);
  });

  it('answers 400 for unknown query parameters and sorts', async () => {
    for (const [query, parameter] of [
      ['sort=secret', 'sort'],
      ['lang=en', 'lang'],
      ['fields=passwordHash', 'fields'],
    ]) {
      const res = await h.request('GET', `/api/languages?${query}`, { token: admin });
      expect(res.status).toBe(400);
      expect((await json(res)).errors[0].source.parameter).toBe(parameter);
    }
  });
});

describe('generic messages', () => {
  it('lists the runner keys sorted by keyName, 50 by default, filtered by messageType', async () => {
    const doc = await json(await h.request('GET', '/api/generic-messages', { token: admin }));
    expect(doc.meta.limit).toBe(50);
    const keys = doc.data.map((m: { attributes: { keyName: string } }) => m.attributes.keyName);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toEqual(expect.arrayContaining(['button_next', 'button_back', 'error_generic', 'outcome_qualified', 'outcome_not_qualified']));
    const next = doc.data.find((m: { attributes: { keyName: string } }) => m.attributes.keyName === 'button_next');
    expect(next.attributes).toMatchObject({ message: 'Next', translations: { es: 'Siguiente' }, messageType: 'default' });

    const global = await json(await h.request('GET', '/api/generic-messages?messageType=global', { token: admin }));
    expect(global.data.length).toBeGreaterThan(0);
    expect(global.data.every((m: { attributes: { messageType: string } }) => m.attributes.messageType === 'global')).toBe(true);
    expect(global.meta.total).toBe(global.data.length);

    const bad = await h.request('GET', '/api/generic-messages?messageType=secret', { token: admin });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors[0].source.parameter).toBe('messageType');
  });

  it('updates the message and its translations; blanks remove a translation', async () => {
    const back = await messageByKey('button_back');
    const id = String(back.id);
    const res = await h.request('PATCH', `/api/generic-messages/${id}`, {
      token: admin,
      body: resource('generic-messages', { message: ' Go back ', translations: { es: 'Regresar' } }, id),
    });
    expect(res.status).toBe(200);
    expect((await json(res)).data.attributes).toMatchObject({ keyName: 'button_back', message: 'Go back', translations: { es: 'Regresar' } });
    const cleared = await json(
      await h.request('PATCH', `/api/generic-messages/${id}`, { token: admin, body: resource('generic-messages', { translations: { es: '  ' } }, id) }),
    );
    expect(cleared.data.attributes.translations).toEqual({});
    expect((await json(await h.request('GET', `/api/generic-messages/${id}`, { token: admin }))).data.attributes.message).toBe('Go back');
  });

  it('refuses unknown languages, the default language, a key change and an empty message, writing nothing', async () => {
    const submit = await messageByKey('button_submit');
    const id = String(submit.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ translations: { de: 'Senden' } }, '/data/attributes/translations/de'],
      [{ translations: { en: 'Send' } }, '/data/attributes/translations/en'],
      [{ translations: { 'es-MX': 'Enviar' } }, '/data/attributes/translations/es-MX'],
      [{ translations: { es: 5 } }, '/data/attributes/translations/es'],
      [{ translations: 'Enviar' }, '/data/attributes/translations'],
      [{ message: '' }, '/data/attributes/message'],
      [{ keyName: 'other' }, '/data/attributes/keyName'],
      [{ messageType: 'global' }, '/data/attributes/messageType'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await h.request('PATCH', `/api/generic-messages/${id}`, { token: admin, body: resource('generic-messages', attributes, id) });
      expect(res.status, pointer).toBe(422);
      expect(pointers(await json(res))).toContain(pointer);
    }
    expect(await messageByKey('button_submit')).toEqual(submit);
    expect((await h.request('PATCH', '/api/generic-messages/99999', { token: admin, body: resource('generic-messages', {}) })).status).toBe(404);
    expect((await h.request('POST', '/api/generic-messages', { token: admin, body: resource('generic-messages', {}) })).status).toBe(404);
  });
});

describe('contact fields', () => {
  it('lists the seeded fields sorted by label with limit 20', async () => {
    const doc = await json(await h.request('GET', '/api/contact-fields', { token: admin }));
    expect(doc.meta).toMatchObject({ limit: 20, total: 6 });
    const names = doc.data.map((f: { attributes: { name: string } }) => f.attributes.name);
    expect(names.sort()).toEqual(['contact_consent', 'email', 'first_name', 'last_name', 'phone', 'zip_code']);
    const labels = doc.data.map((f: { attributes: { label: string } }) => f.attributes.label);
    expect(labels).toEqual([...labels].sort((a: string, b: string) => (a < b ? -1 : 1)));
    const consent = doc.data.find((f: { attributes: { name: string } }) => f.attributes.name === 'contact_consent');
    expect(consent.attributes).toMatchObject({ fieldType: 'checkbox', required: true });
  });

  it('creates (POST with and without the trailing slash), reads, updates and deletes', async () => {
    const res = await h.request('POST', '/api/contact-fields/', {
      token: admin,
      body: resource('contact-fields', { label: 'Date of birth', name: 'date_of_birth', fieldType: 'date', translations: { es: 'Fecha de nacimiento' } }),
    });
    expect(res.status).toBe(201);
    const doc = await json(res);
    expect(doc.data.attributes).toMatchObject({ label: 'Date of birth', name: 'date_of_birth', fieldType: 'date', required: false });
    const id = doc.data.id;

    const plain = await h.request('POST', '/api/contact-fields', { token: admin, body: resource('contact-fields', { label: 'City', name: 'city' }) });
    expect(plain.status).toBe(201);
    expect((await json(plain)).data.attributes).toMatchObject({ fieldType: 'text', required: false, translations: {} });

    const patched = await h.request('PATCH', `/api/contact-fields/${id}`, { token: admin, body: resource('contact-fields', { required: true }, id) });
    expect(patched.status).toBe(200);
    expect((await json(patched)).data.attributes).toMatchObject({ required: true, fieldType: 'date', translations: { es: 'Fecha de nacimiento' } });

    expect((await h.request('DELETE', `/api/contact-fields/${id}`, { token: admin })).status).toBe(204);
    expect((await h.request('GET', `/api/contact-fields/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses a name in use (409), bad values (422), writing nothing', async () => {
    const before = await rows(contactFields);
    const dup = await h.request('POST', '/api/contact-fields', { token: admin, body: resource('contact-fields', { label: 'Mail', name: 'email' }) });
    expect(dup.status).toBe(409);
    expect((await json(dup)).errors[0]).toMatchObject({ detail: CONTACT_FIELD_NAME_TAKEN, source: { pointer: '/data/attributes/name' } });
    const cases: [Record<string, unknown>, string][] = [
      [{ label: 'X', name: 'First Name' }, '/data/attributes/name'],
      [{ label: 'X', name: '1st' }, '/data/attributes/name'],
      [{ label: 'X', name: 'x', type: 'radio' }, '/data/attributes/type'],
      [{ label: '', name: 'x' }, '/data/attributes/label'],
      [{ label: 'X', name: 'x', required: 'true' }, '/data/attributes/required'],
      [{ label: 'X', name: 'x', translations: { xx: 'Y' } }, '/data/attributes/translations/xx'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await h.request('POST', '/api/contact-fields', { token: admin, body: resource('contact-fields', attributes) });
      expect(res.status, pointer).toBe(422);
      expect(pointers(await json(res))).toContain(pointer);
    }
    const [first] = await h.db.select().from(contactFields).where(eq(contactFields.name, 'first_name'));
    const rename = await h.request('PATCH', `/api/contact-fields/${first!.id}`, {
      token: admin,
      body: resource('contact-fields', { name: 'last_name' }, String(first!.id)),
    });
    expect(rename.status).toBe(409);
    expect(await rows(contactFields)).toBe(before);
    expect((await h.request('GET', '/api/contact-fields?sort=weight', { token: admin })).status).toBe(400);
  });
});

import { describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { indications } from '../../../server/db/schema';
import { LOOKUP_NAME_TAKEN } from '@core/model/lookup';
import { useAdminHarness, json, type Harness } from '../harness';
import { expectParametersRefused } from '../listQueries';

let h: Harness;
let admin: string;

useAdminHarness((server) => ({ h, admin } = server));

const names = (doc: { data: { attributes: { name: string } }[] }) => doc.data.map((r) => r.attributes.name);

describe('lookups', () => {
  it.each([
    ['campaign-types', 'Digital Media'],
    ['roles', 'Admin'],
    ['question-categories', 'Demographics'],
    ['target-groups', 'Adults'],
    ['therapeutic-areas', 'Oncology'],
    ['rms-providers', 'Default record system'],
    ['indications', 'Asthma'],
    ['tags', 'Eligibility'],
  ])('GET /api/%s lists the seeded values by name, all in one page', async (path, expected) => {
    const res = await h.request('GET', `/api/${path}`, { token: admin });
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc.meta).toMatchObject({ page: 1, limit: 1000 });
    expect(doc.data[0].type).toBe(path);
    expect(names(doc)).toContain(expected);
    expect(names(doc)).toEqual([...names(doc)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const one = await h.request('GET', `/api/${path}/${doc.data[0].id}`, { token: admin });
    expect((await json(one)).data.attributes.name).toBe(doc.data[0].attributes.name);
    expect((await h.request('GET', `/api/${path}/999999`, { token: admin })).status).toBe(404);
    expect((await h.request('GET', `/api/${path}`)).status).toBe(401);
  });

  it('serves therapeutic areas such as Oncology, Neurology and Cardiology on a new install', async () => {
    const doc = await json(await h.request('GET', '/api/therapeutic-areas?searchQuery=o', { token: admin }));
    expect(names(doc)).toEqual(expect.arrayContaining(['Oncology', 'Neurology', 'Cardiology']));
  });

  it('answers 400 for unknown sort fields and parameters', async () => {
    await expectParametersRefused(h, '/api/campaign-types', admin, [
      ['sort=secret', 'sort'],
      ['limit=3', 'limit'],
      ['isActive=true', 'isActive'],
    ]);
  });

  it('lists countries with id, name and isoCode', async () => {
    const doc = await json(await h.request('GET', '/api/countries?fields=id,name,isoCode&limit=1000', { token: admin }));
    expect(doc.data.find((c: { attributes: { isoCode: string } }) => c.attributes.isoCode === 'US').attributes).toEqual({
      name: 'United States',
      isoCode: 'US',
    });
  });
});

describe('adding indications and tags', () => {
  it('creates an indication with name and is_active (or isActive), and refuses duplicates', async () => {
    const res = await h.request('POST', '/api/indications', {
      token: admin,
      body: { data: { type: 'indications', attributes: { name: ' Lupus ', is_active: false } } },
    });
    expect(res.status).toBe(201);
    expect((await json(res)).data.attributes).toEqual({ name: 'Lupus', isActive: false });
    const inactive = await json(await h.request('GET', '/api/indications?isActive=false', { token: admin }));
    expect(names(inactive)).toEqual(['Lupus']);
    const dup = await h.request('POST', '/api/indications', { token: admin, body: { data: { type: 'indications', attributes: { name: 'Lupus' } } } });
    expect(dup.status).toBe(409);
    expect((await json(dup)).errors[0]).toMatchObject({ detail: LOOKUP_NAME_TAKEN, source: { pointer: '/data/attributes/name' } });
  });

  it('refuses bad bodies with pointers and writes nothing', async () => {
    const before = (await h.db.select({ n: count() }).from(indications))[0]?.n;
    const res = await h.request('POST', '/api/indications', {
      token: admin,
      body: { data: { type: 'indications', attributes: { name: '', isActive: 'yes', colour: 1 } } },
    });
    expect(res.status).toBe(422);
    const pointers = (await json(res)).errors.map((e: { source: { pointer: string } }) => e.source.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/data/attributes/name', '/data/attributes/isActive']));
    const wrongType = await h.request('POST', '/api/indications', { token: admin, body: { data: { type: 'tags', attributes: { name: 'X' } } } });
    expect(wrongType.status).toBe(409);
    expect((await h.db.select({ n: count() }).from(indications))[0]?.n).toBe(before);
  });

  it('creates tags; other lookups do not take POST', async () => {
    const res = await h.request('POST', '/api/tags', { token: admin, body: { data: { type: 'tags', attributes: { name: 'Consent' } } } });
    expect(res.status).toBe(201);
    expect(names(await json(await h.request('GET', '/api/tags', { token: admin })))).toContain('Consent');
    const campaign = await h.request('POST', '/api/campaign-types', { token: admin, body: { data: { type: 'campaign-types', attributes: { name: 'X' } } } });
    expect(campaign.status).toBe(404);
  });
});

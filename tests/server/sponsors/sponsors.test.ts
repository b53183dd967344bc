import { beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { engagements, sponsors } from '../../../server/db/schema';
import { SPONSOR_HAS_ENGAGEMENTS } from '../../../server/sponsors/routes';
import { IDENTIFICATION_TAKEN } from '../../../server/http/uniqueIdentification';
import { useAdminHarness, json, type Harness } from '../harness';
import { expectOnlyIdentificationTaken, expectParametersRefused } from '../listQueries';

let h: Harness;
let admin: string;

const body = (attributes: Record<string, unknown>, id?: string) => ({ data: { type: 'sponsors', ...(id ? { id } : {}), attributes } });
const sponsorCount = async () => (await h.db.select({ n: count() }).from(sponsors))[0]?.n;

async function create(attributes: Record<string, unknown>, token = admin) {
  const res = await h.request('POST', '/api/sponsors', { token, body: body(attributes) });
  return { res, doc: await json(res) };
}

useAdminHarness((server) => ({ h, admin } = server));

describe('sponsors CRUD', () => {
  it('creates (201), reads (200), updates (200) and deletes (204)', async () => {
    const countries = await json(await h.request('GET', '/api/countries?isoCode=FR&fields=id,name,isoCode', { token: admin }));
    const france = countries.data[0];
    expect(france.attributes).toEqual({ name: 'France', isoCode: 'FR' });

    const { res, doc } = await create({
      name: '  Acme Pharma ',
      identification: 'ACME',
      description: 'Big',
      countryId: Number(france.id),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(doc.data.attributes).toMatchObject({
      name: 'Acme Pharma',
      identification: 'ACME',
      isActive: true,
      countryName: 'France',
      rmsSponsorIdentifier: null,
    });
    const id = doc.data.id;

    const read = await h.request('GET', `/api/sponsors/${id}?include=country`, { token: admin });
    expect(read.status).toBe(200);
    const readDoc = await json(read);
    expect(readDoc.data.relationships.country.data).toEqual({ type: 'countries', id: france.id });
    expect(readDoc.included[0].attributes.isoCode).toBe('FR');

    const patched = await h.request('PATCH', `/api/sponsors/${id}`, {
      token: admin,
      body: body({ isActive: false, businessPractice: 'Direct' }, id),
    });
    expect(patched.status).toBe(200);
    expect((await json(patched)).data.attributes).toMatchObject({ name: 'Acme Pharma', isActive: false, businessPractice: 'Direct' });

    const del = await h.request('DELETE', `/api/sponsors/${id}`, { token: admin });
    expect(del.status).toBe(204);
    expect((await h.request('GET', `/api/sponsors/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses to delete a sponsor that still has engagements (409, nothing deleted)', async () => {
    const { doc } = await create({ name: 'Busy Sponsor', identification: 'BUSY' });
    await h.db.insert(engagements).values({ name: 'Study', identification: 'BUSY-1', sponsorId: Number(doc.data.id) });
    const res = await h.request('DELETE', `/api/sponsors/${doc.data.id}`, { token: admin });
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0].detail).toBe(SPONSOR_HAS_ENGAGEMENTS(1));
    expect((await h.request('GET', `/api/sponsors/${doc.data.id}`, { token: admin })).status).toBe(200);
  });

  it('answers 404 with a JSON:API error for unknown and malformed ids', async () => {
    for (const id of ['999999', 'abc', '0', '99999999999999']) {
      const res = await h.request('GET', `/api/sponsors/${id}`, { token: admin });
      expect(res.status).toBe(404);
      expect((await json(res)).errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
    expect((await h.request('PATCH', '/api/sponsors/999999', { token: admin, body: body({ name: 'x' }) })).status).toBe(404);
    expect((await h.request('DELETE', '/api/sponsors/999999', { token: admin })).status).toBe(404);
  });

  it('requires a signed-in user', async () => {
    expect((await h.request('GET', '/api/sponsors')).status).toBe(401);
    expect((await h.request('POST', '/api/sponsors', { body: body({ name: 'x', identification: 'y' }) })).status).toBe(401);
  });
});

describe('sponsor validation writes nothing on bad input', () => {
  it('422 with a pointer per invalid attribute', async () => {
    const before = await sponsorCount();
    const { res, doc } = await create({ name: '', identification: 'x'.repeat(65), isActive: 'yes', countryId: -1, extra: 1 });
    expect(res.status).toBe(422);
    const pointers = doc.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual(
      expect.arrayContaining(['/data/attributes/name', '/data/attributes/identification', '/data/attributes/isActive', '/data/attributes/countryId']),
    );
    const name = doc.errors.find((e: { source: { pointer: string } }) => e.source.pointer === '/data/attributes/name');
    expect(name.detail).toBe('This field is required.');
    expect(doc.errors.some((e: { detail: string }) => e.detail === 'Maximum 64 characters.')).toBe(true);
    expect(await sponsorCount()).toBe(before);
  });

  it('refuses unknown countries, malformed JSON, wrong media types and wrong resource types', async () => {
    const before = await sponsorCount();
    const unknownCountry = await create({ name: 'A', identification: 'UNKNOWN-COUNTRY', countryId: 999999 });
    expect(unknownCountry.res.status).toBe(422);
    expect(unknownCountry.doc.errors[0].source.pointer).toBe('/data/attributes/countryId');

    const malformed = await h.request('POST', '/api/sponsors', { token: admin, body: '{"data":' });
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).errors[0].detail).toBe('The request body is not valid JSON.');

    const text = await h.request('POST', '/api/sponsors', { token: admin, body: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);

    const wrongType = await h.request('POST', '/api/sponsors', {
      token: admin,
      body: { data: { type: 'users', attributes: { name: 'a', identification: 'b' } } },
    });
    expect(wrongType.status).toBe(409);

    const nul = await h.request('POST', '/api/sponsors', { token: admin, body: body({ name: 'a\u0000b', identification: 'NUL' }) });
    expect(nul.status).toBe(400);
    expect((await json(nul)).errors[0].detail).toContain('NUL');

    const noData = await h.request('POST', '/api/sponsors', { token: admin, body: { name: 'a' } });
    expect(noData.status).toBe(422);
    expect((await json(noData)).errors[0].source.pointer).toBe('/data');
    expect(await sponsorCount()).toBe(before);
  });

  it('refuses a body whose id differs from the URL', async () => {
    const { doc } = await create({ name: 'Mismatch', identification: 'MISMATCH' });
    const res = await h.request('PATCH', `/api/sponsors/${doc.data.id}`, { token: admin, body: body({ name: 'Changed' }, '424242') });
    expect(res.status).toBe(409);
    const after = await json(await h.request('GET', `/api/sponsors/${doc.data.id}`, { token: admin }));
    expect(after.data.attributes.name).toBe('Mismatch');
  });
});

describe('identification uniqueness', () => {
  it('is checked with uniqueIdentification and enforced on create and update (409)', async () => {
    const { doc: first } = await create({ name: 'Unique One', identification: 'UNQ-1' });
    const check = await json(await h.request('GET', '/api/sponsors?uniqueIdentification=UNQ-1', { token: admin }));
    expect(check.meta.total).toBe(1);
    expect(check.data[0].id).toBe(first.data.id);
    const free = await json(await h.request('GET', '/api/sponsors?uniqueIdentification=UNQ-FREE', { token: admin }));
    expect(free.meta.total).toBe(0);

    const dup = await create({ name: 'Unique Two', identification: 'UNQ-1' });
    expect(dup.res.status).toBe(409);
    expect(dup.doc.errors[0]).toMatchObject({ detail: IDENTIFICATION_TAKEN, source: { pointer: '/data/attributes/identification' } });

    const { doc: second } = await create({ name: 'Unique Two', identification: 'UNQ-2' });
    const clash = await h.request('PATCH', `/api/sponsors/${second.data.id}`, { token: admin, body: body({ identification: 'UNQ-1' }) });
    expect(clash.status).toBe(409);
    // Saving a sponsor with its own identification is not a clash.
    const same = await h.request('PATCH', `/api/sponsors/${second.data.id}`, { token: admin, body: body({ identification: 'UNQ-2', name: 'Renamed' }) });
    expect(same.status).toBe(200);
  });
});

describe('sponsors list', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 25; i++) {
      await create({ name: `List Sponsor ${String(i).padStart(2, '0')}`, identification: `LIST-${i}`, isActive: i % 5 !== 0 });
    }
  });

  it('pages with meta.total and the default sort -isActive,name', async () => {
    const page1 = await json(await h.request('GET', '/api/sponsors?searchQuery=List%20Sponsor&limit=10', { token: admin }));
    expect(page1.meta).toMatchObject({ total: 25, page: 1, limit: 10 });
    expect(page1.data).toHaveLength(10);
    // Active ones first, by name.
    expect(page1.data[0].attributes.name).toBe('List Sponsor 01');
    const page3 = await json(await h.request('GET', '/api/sponsors?searchQuery=List%20Sponsor&limit=10&page=3', { token: admin }));
    expect(page3.data).toHaveLength(5);
    expect(page3.data.every((s: { attributes: { isActive: boolean } }) => !s.attributes.isActive)).toBe(true);
    const ids = new Set([...page1.data, ...page3.data].map((s: { id: string }) => s.id));
    expect(ids.size).toBe(15);
  });

  it('sorts by a whitelisted column in both directions', async () => {
    const desc = await json(await h.request('GET', '/api/sponsors?searchQuery=LIST-&sort=-identification&limit=50', { token: admin }));
    const idents = desc.data.map((s: { attributes: { identification: string } }) => s.attributes.identification);
    expect(idents).toEqual([...idents].sort().reverse());
    const asc = await json(await h.request('GET', '/api/sponsors?searchQuery=LIST-&sort=identification&limit=50', { token: admin }));
    expect(asc.data[0].attributes.identification).toBe('LIST-1');
  });

  it('searches name and identification case-insensitively and escapes LIKE wildcards', async () => {
    const found = await json(await h.request('GET', '/api/sponsors?searchQuery=sponsor%2007', { token: admin }));
    expect(found.data.map((s: { attributes: { name: string } }) => s.attributes.name)).toEqual(['List Sponsor 07']);
    const wildcard = await json(await h.request('GET', '/api/sponsors?searchQuery=%25', { token: admin }));
    expect(wildcard.meta.total).toBe(0);
  });

  it('returns only the requested fields', async () => {
    const doc = await json(await h.request('GET', '/api/sponsors?fields=name&limit=10', { token: admin }));
    expect(Object.keys(doc.data[0].attributes)).toEqual(['name']);
  });

  it('answers 400 for bad list parameters, naming the parameter', async () => {
    const cases: [string, string][] = [
      ['sort=password', 'sort'],
      ['sort=name;drop table sponsors', 'sort'],
      ['limit=15', 'limit'],
      ['limit=abc', 'limit'],
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['include=users', 'include'],
      ['fields=passwordHash', 'fields'],
      ['unknownFilter=1', 'unknownFilter'],
      ['isActive=maybe', 'isActive'],
      ['page=1&page=2', 'page'],
      ['searchQuery=%00', 'searchQuery'],
    ];
    await expectParametersRefused(h, '/api/sponsors', admin, cases);
  });

  it('accepts every page size of the product', async () => {
    for (const limit of [10, 20, 50, 100, 1000]) {
      expect((await h.request('GET', `/api/sponsors?limit=${limit}`, { token: admin })).status).toBe(200);
    }
  });
});

describe('a User sees only their sponsors', () => {
  let mine: string;
  let theirs: string;
  let userToken: string;
  beforeAll(async () => {
    mine = (await create({ name: 'Mine Inc', identification: 'MINE' })).doc.data.id;
    theirs = (await create({ name: 'Theirs Inc', identification: 'THEIRS' })).doc.data.id;
    await h.createUser({ username: 'scoped', password: 'scoped-password', roles: ['User'], sponsorIds: [Number(mine)] });
    userToken = await h.token('scoped', 'scoped-password');
  });

  it('lists and reads only assigned sponsors', async () => {
    const list = await json(await h.request('GET', '/api/sponsors?limit=100', { token: userToken }));
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([mine]);
    expect(list.meta.total).toBe(1);
    expect((await h.request('GET', `/api/sponsors/${mine}`, { token: userToken })).status).toBe(200);
    expect((await h.request('GET', `/api/sponsors/${theirs}`, { token: userToken })).status).toBe(404);
  });

  it('cannot change or delete another sponsor', async () => {
    expect((await h.request('PATCH', `/api/sponsors/${theirs}`, { token: userToken, body: body({ name: 'Hacked' }) })).status).toBe(404);
    // Deleting is an Admin's: refused before the sponsor is looked up, so nothing is revealed.
    expect((await h.request('DELETE', `/api/sponsors/${theirs}`, { token: userToken })).status).toBe(403);
    const still = await json(await h.request('GET', `/api/sponsors/${theirs}`, { token: admin }));
    expect(still.data.attributes.name).toBe('Theirs Inc');
  });

  it('learns only that an identification is taken, not the sponsor behind it', async () => {
    await expectOnlyIdentificationTaken(h, '/api/sponsors', 'THEIRS', userToken);
  });

  it('edits their own sponsor but may neither create nor delete one, not even their own (403, nothing written)', async () => {
    const before = await sponsorCount();
    const made = await create({ name: 'Made By User', identification: 'BYUSER' }, userToken);
    expect(made.res.status).toBe(403);
    expect(made.doc.errors[0].status).toBe('403');
    expect((await h.request('DELETE', `/api/sponsors/${mine}`, { token: userToken })).status).toBe(403);
    expect(await sponsorCount()).toBe(before);
    expect((await h.request('GET', `/api/sponsors/${mine}`, { token: userToken })).status).toBe(200);
    // Their scope is what an Admin gave them: still only their sponsor.
    const list = await json(await h.request('GET', '/api/sponsors?limit=100', { token: userToken }));
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([mine]);

    const edited = await h.request('PATCH', `/api/sponsors/${mine}`, { token: userToken, body: body({ description: 'Edited by its User' }) });
    expect(edited.status).toBe(200);
    expect((await json(edited)).data.attributes.description).toBe('Edited by its User');
  });
});

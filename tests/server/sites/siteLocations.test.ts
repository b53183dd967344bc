import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, desc, eq, inArray } from 'drizzle-orm';
import { auditEvents, engagementSiteLocations, siteLocations } from '../../../server/db/schema';
import { SITE_LOCATION_LINKED } from '../../../server/sites/siteLocations.routes';
import { SITE_ID_TAKEN } from '@core/model/siteLocation';
import { LINK_EXISTS } from '@core/model/engagementSiteLocation';
import { createHarness, json, type Harness } from '../harness';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

let h: Harness;
let admin: string;
let engagementId: number;
let usCountryId: number;

const siteBody = (attributes: Record<string, unknown>, id?: string) => ({ data: { type: 'site-locations', ...(id ? { id } : {}), attributes } });
const linkBody = (attributes: Record<string, unknown>) => ({ data: { type: 'engagements-site-locations', attributes } });
const siteCount = async () => (await h.db.select({ n: count() }).from(siteLocations))[0]?.n;
const linkCount = async () => (await h.db.select({ n: count() }).from(engagementSiteLocations))[0]?.n;

async function createSite(attributes: Record<string, unknown>, token = admin) {
  const res = await h.request('POST', '/api/site-locations', { token, body: siteBody(attributes) });
  return { res, doc: await json(res) };
}

async function createEngagement(sponsorId: string, identification: string) {
  const res = await h.request('POST', '/api/engagements', {
    token: admin,
    body: { data: { type: 'engagements', attributes: { name: `Study ${identification}`, identification, sponsorId: Number(sponsorId) } } },
  });
  return Number((await json(res)).data.id);
}

function upload(target: number | string, file: Blob | string | null, filename = 'sites.csv', token = admin) {
  const form = new FormData();
  if (file !== null) form.set('file', typeof file === 'string' ? new Blob([file], { type: 'text/csv' }) : file, filename);
  return h.app.request(`/api/engagements-site-locations/upload/${target}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  const sponsor = await json(
    await h.request('POST', '/api/sponsors', {
      token: admin,
      body: { data: { type: 'sponsors', attributes: { name: 'Site Sponsor', identification: 'SITESP' } } },
    }),
  );
  engagementId = await createEngagement(sponsor.data.id, 'SITE-E1');
  const us = await json(await h.request('GET', '/api/countries?isoCode=US', { token: admin }));
  usCountryId = Number(us.data[0].id);
});
afterAll(async () => {
  await h.close();
});

describe('site locations CRUD', () => {
  it('creates with every field, reads, updates and deletes', async () => {
    const attributes = {
      siteId: 'CRUD-1',
      name: ' Boston Site ',
      description: 'Near the river',
      countryId: usCountryId,
      streetAddress: '1 Main St',
      unitNumber: '4B',
      city: 'Boston',
      state: 'MA',
      zipCode: '02110',
      isVirtual: false,
      piName: 'Dr. Smith',
      latitude: 42.36,
      longitude: -71.05,
      siteLocationType: 'academic_hospital',
      irbType: 'single',
    };
    const { res, doc } = await createSite(attributes);
    expect(res.status).toBe(201);
    expect(doc.data.attributes).toMatchObject({ ...attributes, name: 'Boston Site', isActive: true, countryName: 'United States', countryIsoCode: 'US' });
    const id = doc.data.id;
    expect((await h.request('GET', `/api/site-locations/${id}`, { token: admin })).status).toBe(200);
    const patched = await h.request('PATCH', `/api/site-locations/${id}`, { token: admin, body: siteBody({ isActive: false, irbType: null }, id) });
    expect(patched.status).toBe(200);
    expect((await json(patched)).data.attributes).toMatchObject({ isActive: false, irbType: null, city: 'Boston' });
    expect((await h.request('DELETE', `/api/site-locations/${id}`, { token: admin })).status).toBe(204);
    expect((await h.request('GET', `/api/site-locations/${id}`, { token: admin })).status).toBe(404);
  });

  it('422 with pointers for bad bodies, 409 for a taken site id, and writes nothing', async () => {
    const before = await siteCount();
    const { res, doc } = await createSite({
      name: '',
      latitude: 91,
      longitude: 'west',
      siteLocationType: 'castle',
      irbType: 'global',
      countryId: 0,
      extra: true,
    });
    expect(res.status).toBe(422);
    const pointers = doc.errors.map((e: { source: { pointer: string } }) => e.source.pointer);
    for (const field of ['name', 'latitude', 'longitude', 'siteLocationType', 'irbType', 'countryId']) expect(pointers).toContain(`/data/attributes/${field}`);
    const unknownCountry = await createSite({ name: 'X', countryId: 999999 });
    expect(unknownCountry.res.status).toBe(422);
    await createSite({ name: 'Taken', siteId: 'TAKEN-1' });
    const dup = await createSite({ name: 'Taken again', siteId: 'TAKEN-1' });
    expect(dup.res.status).toBe(409);
    expect(dup.doc.errors[0]).toMatchObject({ detail: SITE_ID_TAKEN, source: { pointer: '/data/attributes/siteId' } });
    expect(await siteCount()).toBe((before ?? 0) + 1);
  });

  it('refuses to delete a site that is still linked (409)', async () => {
    const { doc } = await createSite({ name: 'Linked Site' });
    await h.request('POST', '/api/engagements-site-locations', { token: admin, body: linkBody({ engagementId, siteLocationId: Number(doc.data.id) }) });
    const res = await h.request('DELETE', `/api/site-locations/${doc.data.id}`, { token: admin });
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0].detail).toBe(SITE_LOCATION_LINKED(1));
  });

  it('lets any staff read but only Admin and Super User change', async () => {
    await h.createUser({ username: 'plain-user', password: 'plain-password', roles: ['User'] });
    const user = await h.token('plain-user', 'plain-password');
    expect((await h.request('GET', '/api/site-locations', { token: user })).status).toBe(200);
    const { res } = await createSite({ name: 'Not allowed' }, user);
    expect(res.status).toBe(403);
    const { doc } = await createSite({ name: 'Protected' });
    expect((await h.request('PATCH', `/api/site-locations/${doc.data.id}`, { token: user, body: siteBody({ name: 'X' }) })).status).toBe(403);
    expect((await h.request('DELETE', `/api/site-locations/${doc.data.id}`, { token: user })).status).toBe(403);
  });
});

describe('site locations list', () => {
  beforeAll(async () => {
    await createSite({ name: 'Search Alpha', siteId: 'SRCH-A', city: 'Springfield', state: 'IL', zipCode: '62701', piName: 'Dr. Hibbert' });
    await createSite({ name: 'Search Beta', siteId: 'SRCH-B', city: 'Shelbyville', state: 'KY', zipCode: '40065', piName: 'Dr. Nick', isActive: false });
    await createSite({ name: 'Search Gamma', siteId: 'SRCH-C', city: 'Capital City', state: 'OR', zipCode: '97301', piName: 'Dr. Monroe' });
  });

  it('searches name, site id, city, state, zip and PI name', async () => {
    const find = async (q: string) =>
      (await json(await h.request('GET', `/api/site-locations?searchQuery=${encodeURIComponent(q)}`, { token: admin }))).data.map(
        (s: { attributes: { siteId: string } }) => s.attributes.siteId,
      );
    expect(await find('alpha')).toEqual(['SRCH-A']);
    expect(await find('SRCH-B')).toEqual(['SRCH-B']);
    expect(await find('shelbyville')).toEqual(['SRCH-B']);
    expect(await find('OR')).toContain('SRCH-C');
    expect(await find('97301')).toEqual(['SRCH-C']);
    expect(await find('hibbert')).toEqual(['SRCH-A']);
  });

  it('sorts -isActive,name by default, and refuses unknown sort fields', async () => {
    const doc = await json(await h.request('GET', '/api/site-locations?searchQuery=Search%20', { token: admin }));
    expect(doc.data.map((s: { attributes: { name: string } }) => s.attributes.name)).toEqual(['Search Alpha', 'Search Gamma', 'Search Beta']);
    const bad = await h.request('GET', '/api/site-locations?sort=secret', { token: admin });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors[0].source.parameter).toBe('sort');
    const badExclude = await h.request('GET', '/api/site-locations?excludeEngagementId=x', { token: admin });
    expect((await json(badExclude)).errors[0].source.parameter).toBe('excludeEngagementId');
  });
});

describe('site locations of an engagement or a sponsor', () => {
  it('lists only the sites linked to the engagement, or to any engagement of the sponsor; refuses a malformed id', async () => {
    const sponsors = await Promise.all(
      ['NARROW-A', 'NARROW-B'].map(async (identification) =>
        json(
          await h.request('POST', '/api/sponsors', {
            token: admin,
            body: { data: { type: 'sponsors', attributes: { name: identification, identification } } },
          }),
        ),
      ),
    );
    const [ofA1, ofA2, ofB] = await Promise.all([
      createEngagement(sponsors[0].data.id, 'NAR-A1'),
      createEngagement(sponsors[0].data.id, 'NAR-A2'),
      createEngagement(sponsors[1].data.id, 'NAR-B1'),
    ]);
    const link = async (engagement: number, siteId: string) => {
      const { doc } = await createSite({ name: `Narrow ${siteId}`, siteId });
      await h.request('POST', '/api/engagements-site-locations', {
        token: admin,
        body: linkBody({ engagementId: engagement, siteLocationId: Number(doc.data.id) }),
      });
    };
    await link(ofA1, 'NAR-S1');
    await link(ofA2, 'NAR-S2');
    await link(ofB, 'NAR-S3');
    const sites = async (query: string) =>
      (await json(await h.request('GET', `/api/site-locations?searchQuery=NAR-&${query}`, { token: admin }))).data
        .map((s: { attributes: { siteId: string } }) => s.attributes.siteId)
        .sort();
    expect(await sites(`engagementId=${ofA1}`)).toEqual(['NAR-S1']);
    expect(await sites(`sponsorId=${sponsors[0].data.id}`)).toEqual(['NAR-S1', 'NAR-S2']);
    expect(await sites(`sponsorId=${sponsors[1].data.id}`)).toEqual(['NAR-S3']);
    const bad = await h.request('GET', '/api/site-locations?sponsorId=abc', { token: admin });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors[0].source).toEqual({ parameter: 'sponsorId' });
  });
});

describe('engagement site links', () => {
  it('links, lists with the site, edits radius and activity, refuses duplicates, deletes', async () => {
    const { doc: site } = await createSite({ name: 'Link Site', siteId: 'LINK-1', city: 'Austin' });
    const created = await h.request('POST', '/api/engagements-site-locations', {
      token: admin,
      body: linkBody({ engagementId, siteLocationId: Number(site.data.id), radius: 40, rmsSiteIdentification: 'RMS-1' }),
    });
    expect(created.status).toBe(201);
    const link = await json(created);
    expect(link.data.attributes).toMatchObject({
      engagementId,
      siteLocationId: Number(site.data.id),
      radius: 40,
      isActive: true,
      siteName: 'Link Site',
      city: 'Austin',
    });

    const dup = await h.request('POST', '/api/engagements-site-locations', {
      token: admin,
      body: linkBody({ engagementId, siteLocationId: Number(site.data.id) }),
    });
    expect(dup.status).toBe(409);
    expect((await json(dup)).errors[0].detail).toBe(LINK_EXISTS);

    const list = await json(
      await h.request('GET', `/api/engagements-site-locations?engagementId=${engagementId}&searchQuery=LINK-1&include=siteLocation`, { token: admin }),
    );
    expect(list.meta.total).toBe(1);
    expect(list.included[0]).toMatchObject({ type: 'site-locations', id: site.data.id, attributes: { siteId: 'LINK-1' } });

    const patched = await h.request('PATCH', `/api/engagements-site-locations/${link.data.id}`, {
      token: admin,
      body: { data: { type: 'engagements-site-locations', id: link.data.id, attributes: { radius: 75, isActive: false } } },
    });
    expect(patched.status).toBe(200);
    expect((await json(patched)).data.attributes).toMatchObject({ radius: 75, isActive: false, rmsSiteIdentification: 'RMS-1' });

    const bad = await h.request('PATCH', `/api/engagements-site-locations/${link.data.id}`, {
      token: admin,
      body: { data: { type: 'engagements-site-locations', attributes: { radius: -1, engagementId: 5 } } },
    });
    expect(bad.status).toBe(422);
    expect((await json(bad)).errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain('/data/attributes/radius');

    expect((await h.request('DELETE', `/api/engagements-site-locations/${link.data.id}`, { token: admin })).status).toBe(204);
    expect((await h.request('GET', `/api/engagements-site-locations/${link.data.id}`, { token: admin })).status).toBe(404);
  });

  it('refuses links to unknown engagements and sites with 422 pointers', async () => {
    const before = await linkCount();
    const res = await h.request('POST', '/api/engagements-site-locations', { token: admin, body: linkBody({ engagementId: 999999, siteLocationId: 1 }) });
    expect(res.status).toBe(422);
    expect((await json(res)).errors[0].source.pointer).toBe('/data/attributes/engagementId');
    const noSite = await h.request('POST', '/api/engagements-site-locations', { token: admin, body: linkBody({ engagementId, siteLocationId: 999999 }) });
    expect((await json(noSite)).errors[0].source.pointer).toBe('/data/attributes/siteLocationId');
    expect(await linkCount()).toBe(before);
  });

  it("hides another sponsor's links from a User", async () => {
    const { doc: site } = await createSite({ name: 'Hidden Site' });
    const link = await json(
      await h.request('POST', '/api/engagements-site-locations', { token: admin, body: linkBody({ engagementId, siteLocationId: Number(site.data.id) }) }),
    );
    await h.createUser({ username: 'link-user', password: 'link-password', roles: ['User'] });
    const user = await h.token('link-user', 'link-password');
    const list = await json(await h.request('GET', '/api/engagements-site-locations', { token: user }));
    expect(list.meta.total).toBe(0);
    expect(
      (
        await h.request('PATCH', `/api/engagements-site-locations/${link.data.id}`, {
          token: user,
          body: { data: { type: 'engagements-site-locations', attributes: { radius: 1 } } },
        })
      ).status,
    ).toBe(404);
    expect(
      (await h.request('POST', '/api/engagements-site-locations', { token: user, body: linkBody({ engagementId, siteLocationId: Number(site.data.id) }) }))
        .status,
    ).toBe(422);
  });
});

describe('site upload', () => {
  let uploadEngagement: number;
  beforeAll(async () => {
    const sponsor = await json(
      await h.request('POST', '/api/sponsors', {
        token: admin,
        body: { data: { type: 'sponsors', attributes: { name: 'Upload Sponsor', identification: 'UPSP' } } },
      }),
    );
    uploadEngagement = await createEngagement(sponsor.data.id, 'UP-E1');
  });

  it('imports the example CSV: creates the sites and links them', async () => {
    const res = await upload(uploadEngagement, fs.readFileSync(path.join(FIXTURES, 'sites-example.csv'), 'utf8'));
    expect(res.status).toBe(200);
    expect((await json(res)).meta).toEqual({ rows: 3, createdSiteLocations: 3, linkedSiteLocations: 3, updatedLinks: 0 });
    const [boston] = await h.db.select().from(siteLocations).where(eq(siteLocations.siteId, 'BOS-001'));
    expect(boston).toMatchObject({
      name: 'Boston Clinical Research Center',
      city: 'Boston',
      zipCode: '02110',
      latitude: 42.3601,
      irbType: 'local',
      countryId: usCountryId,
    });
    const [nyc] = await h.db.select().from(siteLocations).where(eq(siteLocations.siteId, 'NYC-002'));
    expect(nyc?.name).toBe('Manhattan Academic Hospital, West Wing');
    const links = await json(await h.request('GET', `/api/engagements-site-locations?engagementId=${uploadEngagement}&sort=siteId`, { token: admin }));
    expect(links.data.map((l: { attributes: { siteId: string; radius: number | null } }) => [l.attributes.siteId, l.attributes.radius])).toEqual([
      ['BOS-001', 30],
      ['NYC-002', null],
      ['VIR-003', null],
    ]);

    // The trail's event names every site it created and linked, by id.
    const created = await h.db
      .select({ id: siteLocations.id })
      .from(siteLocations)
      .where(inArray(siteLocations.siteId, ['BOS-001', 'NYC-002', 'VIR-003']));
    const createdIds = created.map((r) => r.id).sort((a, b) => a - b);
    const [event] = await h.db.select().from(auditEvents).where(eq(auditEvents.action, 'upload')).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ entity: 'engagements-site-locations/upload', entityId: String(uploadEngagement) });
    const meta = event!.meta as { createdSiteLocationIds: number[]; linkedSiteLocationIds: number[] };
    expect([...meta.createdSiteLocationIds].sort((a, b) => a - b)).toEqual(createdIds);
    expect([...meta.linkedSiteLocationIds].sort((a, b) => a - b)).toEqual(createdIds);

    // Uploading again creates nothing and keeps one link per site.
    const again = await upload(uploadEngagement, fs.readFileSync(path.join(FIXTURES, 'sites-example.csv'), 'utf8'));
    expect((await json(again)).meta).toEqual({ rows: 3, createdSiteLocations: 0, linkedSiteLocations: 0, updatedLinks: 3 });
    const [second] = await h.db.select().from(auditEvents).where(eq(auditEvents.action, 'upload')).orderBy(desc(auditEvents.id)).limit(1);
    expect(second!.meta).toMatchObject({ createdSiteLocationIds: [], updatedLinks: 3 });
    expect([...(second!.meta as { linkedSiteLocationIds: number[] }).linkedSiteLocationIds].sort((a, b) => a - b)).toEqual(createdIds);
  });

  it('imports the example XLSX', async () => {
    const bytes = fs.readFileSync(path.join(FIXTURES, 'sites-example.xlsx'));
    const res = await upload(uploadEngagement, new Blob([bytes]), 'sites-example.xlsx');
    expect(res.status).toBe(200);
    expect((await json(res)).meta).toMatchObject({ rows: 2, createdSiteLocations: 2 });
    const [toronto] = await h.db.select().from(siteLocations).where(eq(siteLocations.siteId, 'XLS-002'));
    expect(toronto).toMatchObject({ city: 'Toronto', zipCode: 'M5H 2N2', longitude: -79.3832 });
  });

  it('rejects a file with bad rows, naming each row and problem, and writes nothing', async () => {
    const sitesBefore = await siteCount();
    const linksBefore = await linkCount();
    const csv = [
      'site_id,name,city,country,latitude,radius,site_location_type',
      'OK-1,Fine Site,Denver,US,39.7,20,academic_hospital',
      'BAD-2,,Denver,US,39.7,,',
      'BAD-3,Wrong numbers,Denver,Atlantis,200,-5,castle',
      'OK-1,Duplicate,Denver,US,,,',
    ].join('\n');
    const res = await upload(uploadEngagement, csv);
    expect(res.status).toBe(422);
    const errors = (await json(res)).errors as { detail: string; source: { pointer: string }; meta: { row: number; column: string } }[];
    expect(errors.every((e) => e.source.pointer === '/file')).toBe(true);
    expect(errors.map((e) => [e.meta.row, e.meta.column])).toEqual(
      expect.arrayContaining([
        [3, 'name'],
        [4, 'country'],
        [4, 'latitude'],
        [4, 'radius'],
        [4, 'site_location_type'],
        [5, 'site_id'],
      ]),
    );
    expect(errors.find((e) => e.meta.row === 3)?.detail).toBe('Row 3, name: This field is required.');
    expect(errors.some((e) => e.meta.row === 2)).toBe(false);
    expect(await siteCount()).toBe(sitesBefore);
    expect(await linkCount()).toBe(linksBefore);
  });

  it('rejects unknown or missing columns, empty files, and non-spreadsheets', async () => {
    const unknown = await upload(uploadEngagement, 'site_id,name,lattitude\nA,B,1\n');
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).errors[0].detail).toMatch(/^Row 1, lattitude: Unknown column 'lattitude'/);
    const missing = await upload(uploadEngagement, 'name\nA\n');
    expect((await json(missing)).errors[0].detail).toBe("Row 1, site_id: The header must have a 'site_id' column.");
    const headerOnly = await upload(uploadEngagement, 'site_id,name\n');
    expect((await json(headerOnly)).errors[0].detail).toBe('The file has no sites below its header.');
    const binary = await upload(uploadEngagement, new Blob([new Uint8Array([0, 1, 2, 3])]), 'photo.png');
    expect(binary.status).toBe(422);
    const brokenXlsx = await upload(uploadEngagement, new Blob([new Uint8Array([0x50, 0x4b, 3, 4, 9, 9])]), 'broken.xlsx');
    expect((await json(brokenXlsx)).errors[0].detail).toBe('The file could not be read as an .xlsx spreadsheet.');
    const noFile = await upload(uploadEngagement, null);
    expect(noFile.status).toBe(422);
    expect((await json(noFile)).errors[0].source.pointer).toBe('/file');
    const notMultipart = await h.request('POST', `/api/engagements-site-locations/upload/${uploadEngagement}`, { token: admin, body: { data: {} } });
    expect(notMultipart.status).toBe(415);
  });

  it('links existing sites without changing them, and needs Admin or Super User', async () => {
    await createSite({ name: 'Existing Site', siteId: 'EXIST-1', city: 'Reno' });
    const res = await upload(uploadEngagement, 'site_id,name,city,radius\nEXIST-1,,Elsewhere,15\n');
    expect((await json(res)).meta).toMatchObject({ createdSiteLocations: 0, linkedSiteLocations: 1 });
    const [site] = await h.db.select().from(siteLocations).where(eq(siteLocations.siteId, 'EXIST-1'));
    expect(site?.city).toBe('Reno');
    await h.createUser({ username: 'upload-user', password: 'upload-password', roles: ['User'] });
    const user = await h.token('upload-user', 'upload-password');
    expect((await upload(uploadEngagement, 'site_id,name\nU-1,U\n', 'sites.csv', user)).status).toBe(403);
    expect((await upload(999999, 'site_id,name\nU-1,U\n')).status).toBe(404);
  });

  it('answers 413 above the upload limit, writing nothing', async () => {
    const small = await createHarness({ UPLOAD_LIMIT_MB: '1' });
    try {
      const token = await small.token();
      const sponsor = await json(
        await small.request('POST', '/api/sponsors', { token, body: { data: { type: 'sponsors', attributes: { name: 'S', identification: 'S' } } } }),
      );
      const engagement = await json(
        await small.request('POST', '/api/engagements', {
          token,
          body: { data: { type: 'engagements', attributes: { name: 'E', identification: 'E', sponsorId: Number(sponsor.data.id) } } },
        }),
      );
      const send = (size: number) => {
        const form = new FormData();
        form.set('file', new Blob([`site_id,name\n${'A'.repeat(size)},x\n`]), 'big.csv');
        return small.app.request(`/api/engagements-site-locations/upload/${engagement.data.id}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
          body: form,
        });
      };
      // Just over the limit (the file), and far over it (the body, stopped while it streams).
      for (const size of [1024 * 1024 + 100, 3 * 1024 * 1024]) {
        const res = await send(size);
        expect(res.status, String(size)).toBe(413);
        expect((await json(res)).errors[0].detail).toBe('The file is larger than the upload limit of 1 MB.');
      }
      expect((await small.db.select({ n: count() }).from(siteLocations))[0]?.n).toBe(0);
      // JSON bodies keep their own 1 MB limit.
      const json1 = await small.request('POST', '/api/site-locations', {
        token,
        body: JSON.stringify({ data: { type: 'site-locations', attributes: { name: 'x'.repeat(1024 * 1024 + 10) } } }),
      });
      expect(json1.status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

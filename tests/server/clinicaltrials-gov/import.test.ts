/**
 * Sites from ClinicalTrials.gov on the real server and database, against a local HTTP server
 * that answers like the API v2 (`/api/v2/studies/{nctId}`) with real-shaped records: a preview
 * that writes nothing, an all-or-nothing idempotent import, a re-sync that closes and moves
 * sites, an uploaded record, errors naming record and field, and an unreachable API writing
 * nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { createParticipantFixture, runQualified, TOKEN_HEADER, type ParticipantFixture } from '../../support/participantFixture';
import { countries, engagementSiteLocations, siteLocations } from '../../../server/db/schema';

const fixture = (name: string) => JSON.parse(fs.readFileSync(new URL(`../../fixtures/clinicaltrials-gov/${name}`, import.meta.url), 'utf8'));
const MULTI = 'NCT09990001';

let h: Harness;
let f: ParticipantFixture;
let server: http.Server;
let requests = 0;
/** What the local API answers, by NCT id; absent: 404. */
const studies = new Map<string, unknown>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests += 1;
    const match = /^\/api\/v2\/studies\/(NCT\d{8})$/.exec(req.url ?? '');
    // A network failure: the connection drops without an answer.
    if (match?.[1] === 'NCT00000000') return void req.socket.destroy();
    const study = match ? studies.get(match[1]!) : undefined;
    res.writeHead(study ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(study ?? { message: 'Not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h = await createHarness({ CTGOV_API_URL: `${origin}/api/v2` });
  f = await createParticipantFixture(h.db);
  studies.set(MULTI, fixture('multi-country.json'));
});

afterAll(async () => {
  await h.close();
  await new Promise((resolve) => server.close(resolve));
});

const engagement = () => f.engagementIds[1];
const post = async (action: 'preview' | 'import', attributes: Record<string, unknown>, token?: string) =>
  h.request('POST', `/api/clinicaltrials-gov/${action}/${engagement()}`, {
    token: token ?? (await h.token()),
    body: { data: { type: 'clinicaltrials-gov-imports', attributes } },
  });
const studySites = (nct: string) =>
  h.db
    .select()
    .from(siteLocations)
    .where(like(siteLocations.siteId, `${nct}-%`));
const linkOf = async (siteLocationId: number) =>
  (
    await h.db
      .select()
      .from(engagementSiteLocations)
      .where(and(eq(engagementSiteLocations.engagementId, engagement()), eq(engagementSiteLocations.siteLocationId, siteLocationId)))
  )[0];
const names = (list: { name: string }[]) => list.map((s) => s.name).sort();

describe('importing by NCT number', () => {
  it('previews new sites without writing anything', async () => {
    const res = await post('preview', { nctId: ' nct09990001 ' });
    expect(res.status, await res.clone().text()).toBe(200);
    const meta = (await json(res)).meta;
    expect(meta.nctId).toBe(MULTI);
    expect(names(meta.new)).toEqual([
      'Hospital Universitario 12 de Octubre',
      'Klinikum Rechts der Isar',
      'Princess Margaret Cancer Centre',
      'Roswell Park Comprehensive Cancer Center',
      'Seoul National University Hospital',
    ]);
    expect(meta.new.find((s: { name: string }) => s.name === 'Klinikum Rechts der Isar')).toMatchObject({ status: 'COMPLETED', isActive: false });
    expect(meta.new.find((s: { name: string }) => s.name.startsWith('Hospital Universitario'))).toMatchObject({ status: null, isActive: true, zipCode: null });
    expect(meta).toMatchObject({ changed: [], closed: [], unchanged: 0 });
    expect(await studySites(MULTI)).toEqual([]);
  });

  it('imports all of it, keyed so that importing again changes nothing', async () => {
    const res = await post('import', { nctId: MULTI });
    expect(res.status, await res.clone().text()).toBe(200);
    const sites = await studySites(MULTI);
    expect(sites).toHaveLength(5);
    const [korea] = await h.db.select().from(countries).where(eq(countries.isoCode, 'KR'));
    const seoul = sites.find((s) => s.city === 'Seoul')!;
    expect(seoul).toMatchObject({
      name: 'Seoul National University Hospital',
      countryId: korea!.id,
      piName: 'Min-jun Kim',
      latitude: 37.566,
      longitude: 126.9784,
      zipCode: null,
      isActive: true,
    });
    const toronto = sites.find((s) => s.city === 'Toronto')!;
    expect(toronto).toMatchObject({ zipCode: 'M5G 2M9', state: 'Ontario', piName: 'Liam Tremblay', isActive: true });
    expect((await linkOf(toronto.id))?.isActive).toBe(true);
    const munich = sites.find((s) => s.zipCode === '81675')!;
    expect(munich.isActive).toBe(false);
    expect((await linkOf(munich.id))?.isActive).toBe(false);

    const again = await json(await post('import', { nctId: MULTI }));
    expect(again.meta).toMatchObject({ new: [], changed: [], closed: [], unchanged: 5 });
    expect(await studySites(MULTI)).toHaveLength(5);
  });

  it('offers an imported site to a participant near it', async () => {
    const run = await runQualified(h, f, { zip: '14263' });
    const body = await json(
      await h.request('GET', `/api/o-forms/o-form-submission-sites/${run.submissionId}?zip=14263`, { headers: { [TOKEN_HEADER]: run.token } }),
    );
    expect(body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toContain('Roswell Park Comprehensive Cancer Center');
  });

  it('re-syncs: a site gone from the record and one no longer recruiting close, a moved one changes', async () => {
    const record = fixture('multi-country.json');
    const locations = record.protocolSection.contactsLocationsModule.locations;
    record.protocolSection.contactsLocationsModule.locations = locations.filter((l: { city: string }) => l.city !== 'Buffalo');
    const seoul = locations.find((l: { city: string }) => l.city === 'Seoul');
    seoul.status = 'ACTIVE_NOT_RECRUITING';
    const toronto = locations.find((l: { city: string }) => l.city === 'Toronto');
    toronto.geoPoint = { lat: 43.6577, lon: -79.3903 };
    studies.set(MULTI, record);

    const preview = (await json(await post('preview', { nctId: MULTI }))).meta;
    expect(names(preview.closed)).toEqual(['Roswell Park Comprehensive Cancer Center', 'Seoul National University Hospital']);
    expect(preview.changed).toEqual([expect.objectContaining({ name: 'Princess Margaret Cancer Centre', changes: ['latitude', 'longitude'] })]);
    expect(preview.new).toEqual([]);
    expect((await studySites(MULTI)).find((s) => s.city === 'Toronto')?.latitude).toBe(43.70643);

    expect((await post('import', { nctId: MULTI })).status).toBe(200);
    const sites = await studySites(MULTI);
    const buffalo = sites.find((s) => s.city === 'Buffalo')!;
    expect(buffalo.isActive).toBe(false);
    expect((await linkOf(buffalo.id))?.isActive).toBe(false);
    expect((await linkOf(sites.find((s) => s.city === 'Seoul')!.id))?.isActive).toBe(false);
    expect(sites.find((s) => s.city === 'Toronto')).toMatchObject({ latitude: 43.6577, longitude: -79.3903, isActive: true });
    expect((await json(await post('preview', { nctId: MULTI }))).meta).toMatchObject({ new: [], changed: [], closed: [] });
  });
});

describe('an uploaded study record', () => {
  it('imports the real record as given', async () => {
    const res = await post('import', { study: fixture('NCT06388018-trimmed.json') });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).meta.new).toEqual([
      expect.objectContaining({ name: 'Women and Infants Hospital', city: 'Providence', zipCode: '02905', status: 'RECRUITING' }),
    ]);
    expect(await studySites('NCT06388018')).toEqual([expect.objectContaining({ piName: 'Matthew T. Oliver', latitude: 41.82399, isActive: true })]);
  });

  it('names the record and field of every problem and writes nothing', async () => {
    const record = fixture('multi-country.json');
    record.protocolSection.identificationModule.nctId = 'NCT09990002';
    const locations = record.protocolSection.contactsLocationsModule.locations;
    delete locations[1].facility;
    locations[2].geoPoint = { lat: 140, lon: -3.7 };
    locations[3].country = 'Atlantis';
    const res = await post('import', { study: record });
    expect(res.status).toBe(422);
    const errors = (await json(res)).errors;
    expect(errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/study/protocolSection/contactsLocationsModule/locations/1/facility',
      '/data/attributes/study/protocolSection/contactsLocationsModule/locations/2/geoPoint/lat',
    ]);
    expect(errors[1].detail).toBe('Location 3 (Hospital Universitario 12 de Octubre): geoPoint.lat must be a number from -90 to 90.');
    expect(await studySites('NCT09990002')).toEqual([]);

    // With the shape right, the unknown country is named the same way.
    locations[1].facility = 'Princess Margaret Cancer Centre';
    locations[2].geoPoint = { lat: 40.4165, lon: -3.70256 };
    const country = await json(await post('import', { study: record }));
    expect(country.errors).toEqual([
      expect.objectContaining({
        detail: "Location 4 (Seoul National University Hospital): country 'Atlantis' is not a known country.",
        source: { pointer: '/data/attributes/study/protocolSection/contactsLocationsModule/locations/3/country' },
      }),
    ]);
    expect(await studySites('NCT09990002')).toEqual([]);
  });

  it('takes one source: an NCT number or a record', async () => {
    for (const attributes of [{}, { nctId: MULTI, study: fixture('multi-country.json') }]) {
      const res = await post('preview', attributes);
      expect(res.status).toBe(422);
      expect((await json(res)).errors[0].source.pointer).toBe('/data/attributes');
    }
    const bad = await post('preview', { nctId: 'NCT123' });
    expect(bad.status).toBe(422);
    expect((await json(bad)).errors[0].source.pointer).toBe('/data/attributes/nctId');
  });
});

describe('when ClinicalTrials.gov fails', () => {
  it('an unknown study is named; an unreachable API is a clear error; nothing is written', async () => {
    const before = (await h.db.select().from(siteLocations)).length;
    const unknown = await post('import', { nctId: 'NCT01234567' });
    expect(unknown.status).toBe(422);
    expect((await json(unknown)).errors[0]).toMatchObject({
      detail: 'ClinicalTrials.gov has no study NCT01234567.',
      source: { pointer: '/data/attributes/nctId' },
    });
    const down = await post('import', { nctId: 'NCT00000000' });
    expect(down.status).toBe(502);
    expect((await json(down)).errors[0].detail).toBe('ClinicalTrials.gov could not be reached (could not connect); nothing was imported.');
    expect((await h.db.select().from(siteLocations)).length).toBe(before);
  });

  it('is for Admins and Super Users only', async () => {
    await h.createUser({ username: 'ctgov-user', roles: ['User'], sponsorIds: [f.sponsorId] });
    const calls = requests;
    const res = await post('preview', { nctId: MULTI }, await h.token('ctgov-user', 'a-good-password'));
    expect(res.status).toBe(403);
    expect(requests).toBe(calls);
  });
});

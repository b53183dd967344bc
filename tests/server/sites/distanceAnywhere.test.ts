/**
 * Distance anywhere, on the real server and database: a participant outside the US gives a
 * country with a postal code or a town; sites are placed by their coordinates, ZIP code, postal
 * code or town; distances are great-circle, in miles or kilometres as the channel's locale reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { createParticipantFixture, runQualified, TOKEN_HEADER, type ParticipantFixture } from '../../support/participantFixture';
import { countries, engagementSiteLocations, engagements, mediaChannels, siteLocations } from '../../../server/db/schema';
import { placeCentroid, townCentroid } from '../../../server/participant/places';
import { settleDeliveries } from '../../../server/rms/worker';

let h: Harness;
let f: ParticipantFixture;

beforeAll(async () => {
  h = await createHarness();
  f = await createParticipantFixture(h.db);
  await h.db.update(engagements).set({ isActive: false }).where(eq(engagements.id, f.engagementIds[1]));
  const [canada] = await h.db.select().from(countries).where(eq(countries.isoCode, 'CA'));
  // Toronto has only its town and country; Buffalo only its ZIP code.
  const made = await h.db
    .insert(siteLocations)
    .values([
      { name: 'Toronto site', city: 'Toronto', state: 'Ontario', countryId: canada!.id },
      { name: 'Buffalo site', city: 'Buffalo', state: 'NY', zipCode: '14263' },
    ])
    .returning();
  await h.db.insert(engagementSiteLocations).values(made.map((s) => ({ engagementId: f.engagementIds[0], siteLocationId: s.id, radius: 300 })));
  await setLocale('en-CA');
});

/** The survey's ZIP question takes the postal codes of the channel's region: one of each for the runs. */
const SURVEY_ZIP: Record<string, string> = { 'en-CA': 'M5V 3L9', 'en-US': '10001', 'es-ES': '28013', 'en-GB': 'SW1A 1AA' };
let surveyZip = SURVEY_ZIP['en-CA']!;
const setLocale = async (locale: string) => {
  surveyZip = SURVEY_ZIP[locale]!;
  await h.db.update(mediaChannels).set({ locale }).where(eq(mediaChannels.id, f.mediaChannelId));
};

afterAll(async () => {
  await settleDeliveries();
  await h.close();
});

async function sitesFor(query: string) {
  const run = await runQualified(h, f, { zip: surveyZip });
  const res = await h.request('GET', `/api/o-forms/o-form-submission-sites/${run.submissionId}?${query}`, { headers: { [TOKEN_HEADER]: run.token } });
  return { status: res.status, body: await json(res) };
}

describe('places', () => {
  it('resolve towns by country (accents and case aside) and Canadian postal codes by their first three characters', () => {
    const toronto = townCentroid('CA', 'toronto')!;
    expect(toronto.latitude).toBeCloseTo(43.7, 1);
    expect(toronto.longitude).toBeCloseTo(-79.4, 1);
    expect(townCentroid('DE', 'MUNICH')?.latitude).toBeCloseTo(48.14, 1);
    expect(townCentroid('ES', 'Malaga')?.latitude).toBeCloseTo(36.72, 1);
    expect(townCentroid('ES', 'Madrid')?.longitude).toBeCloseTo(-3.7, 1);
    expect(townCentroid('CA', 'Atlantis')).toBeNull();
    expect(placeCentroid('CA', 'M5G 2M9', null)?.latitude).toBeCloseTo(43.65, 1);
    expect(placeCentroid(null, '10001', null)?.latitude).toBeCloseTo(40.75, 1);
  });
});

describe('a participant in Toronto', () => {
  it('by town: is offered the Toronto site before the Buffalo one, in kilometres', async () => {
    const { status, body } = await sitesFor('country=CA&town=Toronto');
    expect(status).toBe(200);
    const sites = body.data.map((d: { attributes: { name: string; distance: number; distanceUnit: string; distanceMiles: number } }) => d.attributes);
    expect(sites.map((s: { name: string }) => s.name)).toEqual(['Toronto site', 'Buffalo site']);
    expect(sites[0]).toMatchObject({ distance: 0, distanceUnit: 'km' });
    // Toronto to downtown Buffalo: about 110 km.
    expect(sites[1].distance).toBeGreaterThan(100);
    expect(sites[1].distance).toBeLessThan(120);
    expect(sites[1].distance).toBeCloseTo(sites[1].distanceMiles * 1.609344, 0);
  });

  it('by postal code: the same order', async () => {
    const { body } = await sitesFor('country=ca&postalCode=M5G%202M9');
    expect(body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual(['Toronto site', 'Buffalo site']);
  });

  it("reads distances in the channel's locale's unit, wherever the participant is", async () => {
    try {
      // A Canadian channel: a participant searching from a US ZIP code reads kilometres too.
      const fromBuffalo = await sitesFor('zip=14263');
      expect(fromBuffalo.body.data.map((d: { attributes: { name: string; distanceUnit: string } }) => [d.attributes.name, d.attributes.distanceUnit])).toEqual([
        ['Buffalo site', 'km'],
        ['Toronto site', 'km'],
      ]);
      // A US channel: the Toronto participant reads miles, the same order.
      await setLocale('en-US');
      const inMiles = (await sitesFor('country=CA&town=Toronto')).body.data.map(
        (d: { attributes: { distance: number; distanceMiles: number; distanceUnit: string } }) => d.attributes,
      );
      expect(inMiles.map((s: { distanceUnit: string }) => s.distanceUnit)).toEqual(['mi', 'mi']);
      expect(inMiles[1].distance).toBe(inMiles[1].distanceMiles);
      expect(inMiles[1].distance).toBeGreaterThan(60);
      expect(inMiles[1].distance).toBeLessThan(75);
      // A Spanish channel: kilometres.
      await setLocale('es-ES');
      expect((await sitesFor('zip=14263')).body.data[0].attributes.distanceUnit).toBe('km');
      await setLocale('en-GB');
      expect((await sitesFor('zip=14263')).body.data[0].attributes.distanceUnit).toBe('mi');
    } finally {
      await setLocale('en-CA');
    }
  });

  it("by the widget's one field: a postal code or a town with the country, the errors on that field", async () => {
    for (const place of ['M5G%202M9', 'Toronto']) {
      const { status, body } = await sitesFor(`country=CA&zip=${place}`);
      expect(status).toBe(200);
      expect(body.data.map((d: { attributes: { name: string; distanceUnit: string } }) => [d.attributes.name, d.attributes.distanceUnit])).toEqual([
        ['Toronto site', 'km'],
        ['Buffalo site', 'km'],
      ]);
    }
    const unknown = await sitesFor('country=CA&zip=Atlantis');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source).toEqual({ parameter: 'zip' });
  });

  it('is asked for a country: the qualification names the countries of the sites, the US first', async () => {
    const run = await runQualified(h, f, { zip: surveyZip });
    const res = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, { headers: { [TOKEN_HEADER]: run.token } });
    expect((await json(res)).meta).toMatchObject({ isQualified: true, siteCountries: ['US', 'CA'] });
  });

  it('refuses a place it cannot find, or a country that is not a code', async () => {
    const town = await sitesFor('country=CA&town=Atlantis');
    expect(town.status).toBe(422);
    expect(town.body.errors[0].source).toEqual({ parameter: 'town' });
    const country = await sitesFor('country=Canada&town=Toronto');
    expect(country.status).toBe(422);
    expect(country.body.errors[0].source).toEqual({ parameter: 'country' });
  });
});

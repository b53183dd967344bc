/**
 * A participant in Toronto, in Chromium, on the demo channel set to en-CA with a Toronto and a
 * Buffalo site: the survey's required ZIP question takes a Canadian postal code (the channel's
 * region) and refuses a US ZIP code, Toronto is offered first with distances in kilometres (the
 * channel's locale), the site step (Back) has Canada chosen and keeps it across a reload, the
 * ZIP contact field starts with the postal code, and the run ends with a referral to the Toronto
 * site. A second participant, with every site out of reach, leaves a lead at noTrialSites that
 * keeps its distance. The places are the server's own data for Canada (a postal code's first
 * three characters; a site's town).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { W, WAIT, next, answerDemoToZip, giveZip } from './demoWidget';
import { eq } from 'drizzle-orm';
import { startDemoOnPartner, type DemoOnPartner } from './demoOnPartner';
import { newParticipant, snippet } from './partnerSite';
import { adminToken, apiCaller } from './admin-session';
import { contactFields, countries, engagementScreeners, engagementSiteLocations, mediaChannels, oFormFields, siteLocations } from '../../server/db/schema';

let demo: DemoOnPartner;
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  demo = await startDemoOnPartner({
    async prepare(db, ids) {
      await db.update(mediaChannels).set({ locale: 'en-CA' }).where(eq(mediaChannels.id, ids.mediaChannelId));
      // The demo survey's ZIP question and ZIP contact field stay required: they take Canada's postal codes here.
      const [zip] = await db.select().from(oFormFields).where(eq(oFormFields.identity, 'demo-zip'));
      expect(zip!.configuration.required).toBe(true);
      expect((await db.select().from(contactFields).where(eq(contactFields.name, 'zip_code')))[0]!.required).toBe(true);
      const [link] = await db.select().from(engagementScreeners).where(eq(engagementScreeners.screenerId, ids.screenerId));
      const [canada] = await db.select().from(countries).where(eq(countries.isoCode, 'CA'));
      // Toronto by its town and country alone; Buffalo by its ZIP code. The demo's New York sites are out of reach.
      const made = await db
        .insert(siteLocations)
        .values([
          { name: 'Toronto Heart Centre', city: 'Toronto', state: 'Ontario', countryId: canada!.id },
          { name: 'Buffalo Heart Clinic', city: 'Buffalo', state: 'NY', zipCode: '14263' },
        ])
        .returning();
      await db.insert(engagementSiteLocations).values(made.map((s) => ({ engagementId: link!.engagementId, siteLocationId: s.id, radius: 300 })));
    },
  });
  demo.partner.page(
    '/',
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Heart health Canada</title></head>
<body><main><h1>Heart health Canada</h1>
<div data-trial-widget></div>
${snippet(demo.server.url, demo.channelId, demo.screenerId)}
</main></body></html>`,
  );
  const token = await adminToken(demo.server.url);
  api = apiCaller(demo.server.url, () => token);
}, 120_000);

afterAll(async () => {
  await demo?.stop();
});

describe('a participant in Toronto', () => {
  it('answers the survey ZIP with a postal code, is offered Toronto before Buffalo in km, keeps Canada across a reload and is referred to Toronto', async () => {
    const { context, page } = await newParticipant(demo.browser, { locale: 'en-CA' });
    await page.goto(`${demo.partner.url}/`);
    await answerDemoToZip(page);
    // The survey's ZIP question, required: a US ZIP code is refused, the Canadian postal code taken.
    await page.locator(`${W} .tw-title`, { hasText: 'Where you live' }).waitFor(WAIT);
    const zipQuestion = page.locator(`${W} input[autocomplete=postal-code]`);
    expect(await zipQuestion.getAttribute('inputmode')).toBe('text');
    await zipQuestion.fill('12345');
    await next(page);
    await expect.poll(() => page.locator(`${W} .tw-error`).allTextContents(), WAIT).toContain('Must be a valid postal code.');
    await zipQuestion.fill('M5V 3L9');
    await next(page);

    // Sites searched in Canada with it: Toronto before Buffalo, in kilometres.
    const sites = page.locator(`${W} .tw-site`);
    await sites.first().waitFor(WAIT);
    const offered = await sites.allTextContents();
    expect(offered).toHaveLength(2);
    expect(offered[0]).toMatch(/^Toronto Heart Centre.*\d+(\.\d)? km away$/);
    expect(offered[1]).toMatch(/^Buffalo Heart Clinic.*\d+(\.\d)? km away$/);
    // Downtown Toronto to Buffalo: about 100 to 120 km.
    const distances = await page.locator(`${W} .tw-site .tw-distance`).allTextContents();
    const buffaloKm = Number(/^([\d.]+) km away$/.exec(distances[1]!)![1]);
    expect(buffaloKm).toBeGreaterThan(95);
    expect(buffaloKm).toBeLessThan(125);

    // Back to the site step: Canada chosen, the field a postal code or town.
    await page.locator(`${W} button.tw-back`).click();
    const country = page.locator(`${W} #tw-country`);
    await country.waitFor(WAIT);
    expect(await country.locator('option').allTextContents()).toEqual(['United States', 'Canada']);
    expect(await country.inputValue()).toBe('CA');
    await expect.poll(() => page.locator(`${W} label[for=tw-zip]`).textContent(), WAIT).toContain('Postal code or town');

    // A reload at the site step: Canada is still chosen, and nothing typed was kept.
    await page.locator(`${W} #tw-zip`).fill('M5V 3L9');
    const stored = await page.evaluate(() => Object.values({ ...sessionStorage }));
    expect(stored.map((v) => JSON.parse(v) as { step: string; country?: string })).toEqual([expect.objectContaining({ step: 'zip', country: 'CA' })]);
    expect(stored.join()).not.toContain('M5V');
    await page.reload();
    await page.locator(`${W} #tw-country`).waitFor(WAIT);
    expect(await page.locator(`${W} #tw-country`).inputValue()).toBe('CA');

    await page.locator(`${W} #tw-zip`).fill('M5V 3L9');
    await next(page);
    await sites.first().waitFor(WAIT);
    expect((await sites.allTextContents())[0]).toMatch(/^Toronto Heart Centre/);

    await sites.first().click();
    await next(page);
    const email = page.locator(`${W} input[type=email]`);
    await email.waitFor(WAIT);
    // The ZIP contact field starts with the postal code the sites were searched for.
    expect(await page.locator(`${W} input[autocomplete=postal-code]`).inputValue()).toBe('M5V 3L9');
    const texts = page.locator(`${W} input[type=text]:not([autocomplete=postal-code])`);
    await texts.nth(0).fill('Tess');
    await texts.nth(1).fill('Toronto');
    await email.fill('tess.toronto@example.com');
    await page.locator(`${W} input[type=tel]`).fill('416-555-0142');
    await next(page);
    const consent = page.locator(`${W} label:has(input[type=checkbox])`);
    await consent.first().waitFor(WAIT);
    await consent.first().click();
    await next(page);
    await page.locator(`${W} [data-outcome=completed]`).waitFor(WAIT);
    await context.close();

    const referrals = await api<{ data: { attributes: { siteName: string | null } }[] }>('referrals?limit=100');
    expect(referrals.data.map((r) => r.attributes.siteName)).toContain('Toronto Heart Centre');
  });

  it('in Vancouver, with every site out of reach: leaves a lead at noTrialSites that keeps its postal code and its distance', async () => {
    const { context, page } = await newParticipant(demo.browser, { locale: 'en-CA' });
    await page.goto(`${demo.partner.url}/`);
    await answerDemoToZip(page);
    await giveZip(page, 'V6B 1A1');

    // The lead's form: the screener's ZIP field starts with the postal code searched for.
    const form = page.locator(`${W} form`);
    await form.locator('label:has(input[type=checkbox])').waitFor(WAIT);
    expect(await form.locator('input[autocomplete=postal-code]').inputValue()).toBe('V6B 1A1');
    const texts = form.locator('input[type=text]:not([autocomplete=postal-code])');
    await texts.nth(0).fill('Val');
    await texts.nth(1).fill('Couver');
    await form.locator('input[type=email]').fill('val.vancouver@example.com');
    await form.locator('input[type=tel]').fill('604-555-0199');
    await form.locator('label:has(input[type=checkbox])').click();
    await next(page);
    await page.locator(`${W} [data-outcome=noTrialSites]`).waitFor(WAIT);
    await context.close();

    type Listed = { id: string; attributes: { kind: string; zipCode: string | null; country: string | null; nearestSiteMiles: number | null } };
    const leads = (await api<{ data: Listed[] }>('leads?limit=20&sort=-created')).data;
    const lead = leads.find((l) => l.attributes.zipCode === 'V6B 1A1');
    expect(lead?.attributes).toMatchObject({ kind: 'noTrialSites', country: 'CA' });
    // Vancouver to Toronto, the nearest site: about 2,080 miles.
    expect(lead!.attributes.nearestSiteMiles).toBeGreaterThan(2000);
    expect(lead!.attributes.nearestSiteMiles).toBeLessThan(2200);
  });
});

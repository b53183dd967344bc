/**
 * The participant transport (core/participant/transport.ts) as the widget sets it up, and the
 * core runner against the real server and database, over the demo data: what a participant on
 * /demo/ goes through. Every answer is checked against the participant contract on arrival.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelFigures } from '../../../server/participant/channelFigures';
import { eq } from 'drizzle-orm';
import { contacts, leads, oForms } from '../../../server/db/schema';
import { demoChannel, seedDemoRun, DEMO_SURVEY_IDENTITY } from '../../../server/demo';
import { pageMetrics } from '../../../server/surveys/pageMetrics';
import { createRunner, type Runner } from '@core/survey/runner';
import { checkParticipantAnswer } from '@core/participant/responses';
import { createParticipantTransport, type ParticipantTransport } from '@core/participant/transport';
import { createHarness, type Harness } from '../harness';
import { later } from '../../support/runnerLater';
import { rowsWhere } from '../rowsWhere';
import { submissionRow } from '../participantServer';

let h: Harness;
let channel: { mediaChannelId: number; screenerId: number };

beforeAll(async () => {
  h = await createHarness();
  channel = await seedDemoRun(h.db);
});
afterAll(async () => {
  await h.close();
});

const origin = 'http://product.test';
function transport(): ParticipantTransport {
  return createParticipantTransport({
    apiOrigin: origin,
    mediaChannelId: String(channel.mediaChannelId),
    screenerId: String(channel.screenerId),
    pageUrl: 'https://healthy-living.example/article',
    check: checkParticipantAnswer,
    fetch: (async (url: string | URL | Request, init?: RequestInit) => h.app.request(String(url).replace(origin, ''), init)) as typeof fetch,
  });
}
const page = (r: Runner) => r.getState().page?.identity;

/** A runner on a transport of its own, started (in `language` where given) and past the demo's first page with these answers. */
async function pastAboutYou(age: string, diagnosed: 'yes' | 'no', language?: string): Promise<Runner> {
  const runner = createRunner({ later, transport: transport(), identity: '', ...(language ? { chooseLanguage: () => language } : {}) });
  await runner.start();
  runner.answer('demo-age', age);
  runner.answer('demo-diagnosed', diagnosed);
  await runner.next();
  return runner;
}

describe('the widget transport over the real participant API (demo data)', () => {
  it('/demo/ embeds the demo channel', async () => {
    expect(await demoChannel(h.db)).toEqual(channel);
    const html = await (await h.app.request('/demo/')).text();
    expect(html).toContain(`data-media-channel-id="${channel.mediaChannelId}" data-screener-id="${channel.screenerId}"`);
  });

  it('qualifies, finds the nearest sites from the ZIP answered in the survey, stores the contact and completes', async () => {
    // The demo channel already carries its generated weeks of runs: this run adds one of each.
    const before = (await channelFigures(h.db, [channel.mediaChannelId])).get(channel.mediaChannelId)!;
    const t = transport();
    const runner = createRunner({ later, transport: t, identity: '', chooseLanguage: () => 'en' });
    await runner.start();
    expect(runner.getState()).toMatchObject({ phase: 'page', survey: { containerCount: 3, languages: ['en', 'es'] } });
    // The widget counts a view once it is on screen (its IntersectionObserver calls this).
    await t.view(runner.getState().survey!.identity, 'en');
    expect(runner.getState().survey?.styles?.progressBar?.background).toBe('CCCCCC');
    expect(page(runner)).toBe('demo-about-you');
    runner.answer('demo-age', '18-64');
    runner.answer('demo-diagnosed', 'yes');
    await runner.next();
    expect(page(runner)).toBe('demo-heart');
    runner.answer('demo-treatment', ['pills', 'diet']);
    await runner.next();
    expect(page(runner)).toBe('demo-where');
    runner.answer('demo-zip', '10001');
    await runner.next();
    const sites = runner.getState();
    expect(sites.phase).toBe('sites');
    expect(sites.messages.contactForm).toContain('Enter your ZIP code');
    expect(sites.sites.map((s) => s.name)).toEqual(['Midtown Heart Center', 'Brooklyn Cardiology Research', 'Newark Clinical Trials Unit']);
    expect(sites.sites[0]!.distanceMiles).toBeLessThan(sites.sites[1]!.distanceMiles);

    await runner.chooseSite(sites.sites[0]!.id);
    expect(runner.getState().contactFields.map((f) => f.name)).toEqual(['first_name', 'last_name', 'email', 'phone', 'zip_code']);
    // The ZIP contact field starts with the ZIP the sites were found for.
    expect(runner.getState().contact.zip_code).toBe('10001');
    expect(runner.getState().messages.consent).toContain('<em>privacy notice</em>');
    runner.setContact('first_name', 'Ann');
    runner.setContact('last_name', 'Lee');
    runner.setContact('email', 'ann@example.com');
    runner.setContact('phone', '212-555-0100');
    runner.submitContact();
    runner.accept(true);
    await runner.submitConsent();
    expect(runner.getState().errors).toEqual({});
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'completed' });
    expect(runner.getState().messages.contactForm).toContain('Your details are on their way');

    const [row] = await h.db.select().from(contacts);
    expect(row).toBeDefined();
    const figures = (await channelFigures(h.db, [channel.mediaChannelId])).get(channel.mediaChannelId);
    expect(figures).toMatchObject({
      views: before.views + 1,
      submissionsStarted: before.submissionsStarted + 1,
      submissionsCompleted: before.submissionsCompleted + 1,
      submissionsQualified: before.submissionsQualified + 1,
    });
  });

  it('jumps past the second page for a "no", and disqualifies an under-18 with the Spanish message', async () => {
    const runner = await pastAboutYou('under-18', 'no', 'es');
    expect(page(runner)).toBe('demo-where');
    expect(runner.getState().progress.value).toBe(1);
    runner.answer('demo-zip', '10001');
    await runner.next();
    // The outcome's lead form first, with its Spanish message pair; "No thanks" (Back) ends the run.
    expect(runner.getState()).toMatchObject({ phase: 'contact', lead: 'notQualified' });
    expect(runner.getState().messages.contactForm).toContain('<strong>no es adecuado</strong>');
    expect(runner.getState().messages.consent).toContain('¿Podemos contactarle');
    await runner.back();
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'notQualified' });
  });

  it('answers a field problem in the participant language and resumes a reload on the same page with its answers', async () => {
    const runner = await pastAboutYou('18-64', 'yes', 'es');
    runner.answer('demo-visits', 'seven');
    await runner.next();
    expect(runner.getState().errors['demo-visits']).toBe('Solo debe contener números.');
    runner.answer('demo-visits', '7');
    await runner.next();
    expect(page(runner)).toBe('demo-where');
    await runner.back();
    expect(page(runner)).toBe('demo-heart');
    const snapshot = runner.snapshot();
    expect(snapshot?.credentials).toBeTruthy();

    const resumed = createRunner({ later, transport: transport(), identity: '', resume: snapshot });
    await resumed.start();
    expect(resumed.getState()).toMatchObject({ phase: 'page', language: 'es', answers: { 'demo-visits': '7' } });
    expect(page(resumed)).toBe('demo-heart');
    const submission = await submissionRow(h, snapshot!.submissionId);
    expect(submission?.language).toBe('es');
  });

  it('an unknown ZIP is a field problem on the ZIP step', async () => {
    const runner = await pastAboutYou('65-plus', 'no');
    runner.answer('demo-zip', '00000');
    await runner.next();
    expect(runner.getState().phase).toBe('zip');
    expect(runner.getState().errors.zip).toBeTruthy();
    runner.enterZip('90012');
    await runner.submitZip();
    // No site near Los Angeles: the noTrialSites lead form, the ZIP searched already in its ZIP field.
    expect(runner.getState()).toMatchObject({ phase: 'contact', lead: 'noTrialSites', contact: { zip_code: '90012' } });
    expect(runner.getState().messages.consent).toBe('May we contact you when a study site opens near you?');
    // The consent box is part of the form: unticked, it is the form's problem, and nothing is sent.
    for (const [name, value] of Object.entries({ first_name: 'Lee', last_name: 'Far', email: 'lee.far@example.com', phone: '213-555-0100' }))
      runner.setContact(name, value);
    runner.submitContact();
    expect(runner.getState()).toMatchObject({ phase: 'contact', errors: { acceptTerms: expect.any(String) } });
    runner.accept(true);
    runner.submitContact();
    await expect.poll(() => runner.getState().phase).toBe('finished');
    expect(runner.getState()).toMatchObject({ outcome: 'noTrialSites', messages: { contactForm: expect.stringContaining('Thank you') } });
    const [kept] = await h.db
      .select()
      .from(leads)
      .where(eq(leads.submissionId, Number(runner.submissionId())));
    expect(kept).toMatchObject({ kind: 'noTrialSites', consentText: 'May we contact you when a study site opens near you?', duplicateOf: null });
    expect(await rowsWhere(h.db, contacts.submissionId, Number(runner.submissionId()))).toEqual([]);
  });
});

describe("the demo's generated weeks of runs", () => {
  it("give the survey's drop-off chart pages to show: every page reached and answered, runs that never finished stopping on pages 2 and 3, times on page", async () => {
    const [form] = await h.db.select({ id: oForms.id }).from(oForms).where(eq(oForms.identity, DEMO_SURVEY_IDENTITY));
    const pages = await pageMetrics(h.db, form!, { now: new Date(), abandonMinutes: 30 });
    expect(pages.map((p) => p.identity)).toEqual(['demo-about-you', 'demo-heart', 'demo-where']);
    for (const p of pages) {
      expect(p.views).toBeGreaterThan(0);
      expect(p.completions).toBeGreaterThan(0);
      expect(p.completions).toBeLessThanOrEqual(p.views);
      expect(p.medianSeconds).toBeGreaterThan(0);
    }
    // Started means page 1 answered: nobody stops there; the page after it is where runs are left.
    expect(pages[0]!.dropOff).toBe(0);
    expect(pages[1]!.dropOff).toBeGreaterThan(0);
    expect(pages[2]!.dropOff).toBeGreaterThan(0);
    // Page 2 is only for those diagnosed; every run reached page 1.
    expect(pages[1]!.views).toBeLessThan(pages[0]!.views);
  });
});

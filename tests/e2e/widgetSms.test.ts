/**
 * The widget's SMS consent box, in Chromium over the built bundles, on the demo channel embedded
 * on a partner page, with the server texting through a local Twilio-shaped server
 * (tests/support/twilioServer.ts): the consent step shows two boxes, the SMS one unticked, with
 * no serious or critical axe violation at 375 px; a run that ticks it gets one confirmation text,
 * which holds none of the participant's answers, contact values or condition; a run that leaves
 * it unticked is texted nothing. The Message Templates screen with a text template chosen has no
 * serious or critical axe violation either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { W, WAIT, next, qualifyToConsent, type DemoPerson } from './demoWidget';
import { startDemoWithAdmin, type DemoOnPartner } from './demoOnPartner';
import { axeViolations as axeIn, magazinePage, newParticipant } from './partnerSite';
import { type apiCaller, signInAsAdmin } from './admin-session';
import { axeViolations } from './axe';
import { startTwilioServer, type TwilioServer } from '../support/twilioServer';

const SID = `AC${'b2'.repeat(16)}`;

let demo: DemoOnPartner;
let call: ReturnType<typeof apiCaller>;
let twilio: TwilioServer;

beforeAll(async () => {
  twilio = await startTwilioServer();
  ({ demo, api: call } = await startDemoWithAdmin({
    env: {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: 'e2e-twilio-token',
      TWILIO_FROM: '+15005550006',
      TWILIO_API_URL: twilio.url,
      PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '0',
      PARTICIPANT_PAGES_PER_ADDRESS: '0',
    },
  }));
  magazinePage(demo.partner, demo.server.url, demo);
}, 120_000);

afterAll(async () => {
  await demo?.stop();
  await twilio?.close();
});

/** Walks the demo survey to its consent step; answers what axe found there and how many boxes it shows. */
async function toConsent(page: Page, person: DemoPerson): Promise<{ boxes: number; violations: string[] }> {
  await page.goto(`${demo.partner.url}/`);
  await qualifyToConsent(page, person);
  const boxes = page.locator(`${W} input[type=checkbox]`);
  await boxes.first().waitFor({ state: 'attached', ...WAIT });
  await expect.poll(() => boxes.count(), WAIT).toBe(2);
  return { boxes: await boxes.count(), violations: await axeIn(page, demo.partner.url, W) };
}

/** The consent step's boxes: the terms' first, the SMS consent second. */
const box = (page: Page, n: 0 | 1) => page.locator(`${W} label:has(input[type=checkbox])`).nth(n);

async function finish(page: Page) {
  await next(page);
  await page.locator(`${W} [data-outcome=completed]`).waitFor(WAIT);
}

type MessageList = { data: { attributes: { channel: string; kind: string; referralId: number | null; status: string } }[]; meta: { total: number } };
const listMessages = (query: string) => call<MessageList>(`messages?${query}`);

describe('the SMS consent box in the widget', () => {
  it('at 375 px: two boxes and no serious or critical axe violation; unticked sends no text, ticked sends one confirmation holding nothing the participant left', async () => {
    const quiet: DemoPerson = { first: 'Quinn', last: 'Untexted', email: 'quinn.untexted@example.com', phone: '212-555-0161' };
    const texted: DemoPerson = { first: 'Tessa', last: 'Texted', email: 'tessa.texted@example.com', phone: '212-555-0162' };

    const first = await newParticipant(demo.browser, { locale: 'en-US', viewport: { width: 375, height: 800 } });
    const atConsent = await toConsent(first.page, quiet);
    expect(atConsent).toEqual({ boxes: 2, violations: [] });
    // The SMS box is offered unticked, and left so.
    expect(await box(first.page, 1).locator('input').isChecked()).toBe(false);
    await expect.poll(() => box(first.page, 1).textContent()).toMatch(/text me at this number/);
    await box(first.page, 0).click();
    await finish(first.page);
    expect(first.problems).toEqual([]);
    await first.context.close();
    // The run's messages were written with its referral: its e-mail confirmation, and no text.
    await expect.poll(async () => (await listMessages('kind=participantConfirmation&channel=email')).meta.total, WAIT).toBe(1);
    expect((await listMessages('channel=sms')).meta.total).toBe(0);

    const second = await newParticipant(demo.browser, { locale: 'en-US', viewport: { width: 375, height: 800 } });
    await toConsent(second.page, texted);
    await box(second.page, 0).click();
    await box(second.page, 1).click();
    expect(await box(second.page, 1).locator('input').isChecked()).toBe(true);
    await finish(second.page);
    expect(second.problems).toEqual([]);
    await second.context.close();

    await expect.poll(() => twilio.received.length, WAIT).toBe(1);
    // A little longer: a text for the unticked run would have had its turn by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(twilio.received).toHaveLength(1);
    const [text] = twilio.received;
    expect(text!.accountSid).toBe(SID);
    expect(text!.params.To).toBe('+12125550162');
    const body = text!.params.Body!;
    expect(body).toMatch(/^Healthy Heart Study: thank you\. .+ will contact you about next steps\. Reply STOP to opt out\.$/);
    for (const secret of [
      ...Object.values(quiet),
      ...Object.values(texted),
      '0161',
      '0162',
      '10001',
      '18-64',
      'pills',
      'yes',
      'heart disease',
      'hypertension',
      'blood pressure',
      'diagnosed',
    ])
      expect(body.toLowerCase()).not.toContain(secret.toLowerCase());
    const texts = await listMessages('channel=sms');
    expect(texts.meta.total).toBe(1);
    await expect.poll(async () => (await listMessages('channel=sms')).data[0]?.attributes.status, WAIT).toBe('sent');
  }, 180_000);

  it('the Message Templates screen with a text template chosen: no serious or critical axe violation', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInAsAdmin(page, demo.server.url);
    await page.goto(`${demo.server.url}/message-templates`);
    await page.getByLabel('Template').selectOption('participantConfirmation.es.sms');
    await page.getByLabel(/Text \(SMS\)/).waitFor(WAIT);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText(/^As sent: \d+ characters/).waitFor(WAIT);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);
});

/**
 * The mail a run of the demo channel causes, in Chromium over the built bundles, with the server
 * mailing a real SMTP server (smtp-server on 127.0.0.1, tests/support/smtpReceiver.ts): the
 * demo site's coordinator gets a link that opens the referral in the admin and, in the raw
 * message, none of the participant's answers or contact values; a run in Spanish is confirmed in
 * Spanish; once the confirmation's one-click unsubscribe is posted, the same person's next
 * referral mails the coordinator and not them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { W, WAIT, next, qualifyToConsent, type DemoPerson } from './demoWidget';
import { startDemoWithAdmin, type DemoOnPartner } from './demoOnPartner';
import { magazinePage, newParticipant, snippet } from './partnerSite';
import { type apiCaller, signInAsAdmin } from './admin-session';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../support/smtpReceiver';
import { DEMO_COORDINATOR_EMAIL, DEMO_ENGAGEMENT } from '../../server/demo';
import { engagements } from '../../server/db/schema';

let demo: DemoOnPartner;
let api: ReturnType<typeof apiCaller>;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  ({ demo, api } = await startDemoWithAdmin({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Study team <studies@recruit.example>',
      PARTICIPANT_SUBMISSIONS_PER_ADDRESS: '0',
      PARTICIPANT_PAGES_PER_ADDRESS: '0',
    },
    // The same person may be referred again at once, so that an unsubscribed address can be.
    prepare: async (db) => void (await db.update(engagements).set({ duplicateWindowDays: 0 }).where(eq(engagements.identification, DEMO_ENGAGEMENT))),
  }));
  magazinePage(demo.partner, demo.server.url, demo);
  demo.partner.page(
    '/es',
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Vida sana</title></head><body><main><div data-trial-widget></div>${snippet(
      demo.server.url,
      demo.channelId,
      demo.screenerId,
      ' data-language="es"',
    )}</main></body></html>`,
  );
}, 120_000);

afterAll(async () => {
  await demo?.stop();
  await smtp?.close();
});

/** A qualified run of the demo survey on the partner page at `path`, through consent to its outcome. */
async function qualifiedRun(path: string, person: DemoPerson): Promise<void> {
  const { context, page, problems } = await newParticipant(demo.browser, { locale: 'en-US' });
  await page.goto(`${demo.partner.url}${path}`);
  await qualifyToConsent(page, person);
  await page.locator(`${W} label:has(input[type=checkbox])`).first().click();
  await next(page);
  await page.locator(`${W} [data-outcome=completed]`).waitFor(WAIT);
  expect(problems).toEqual([]);
  await context.close();
}

const mailsTo = (address: string) => smtp.received.filter((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));
/** Waits until `address` has had `n` mails; answers them. */
async function awaitMails(address: string, n: number): Promise<ReceivedMail[]> {
  await expect.poll(() => mailsTo(address).length, WAIT).toBe(n);
  return mailsTo(address);
}

/** Everything of a mail a reader or a filter could see: the raw message and its decoded parts. */
const whole = (mail: ReceivedMail) => `${mail.raw}\n${mail.parsed.text ?? ''}\n${mail.parsed.html || ''}`.toLowerCase();

async function openAsStaff(link: URL): Promise<Page> {
  const context = await demo.browser.newContext();
  const page = await context.newPage();
  await signInAsAdmin(page, link.origin);
  await page.goto(link.href);
  return page;
}

describe('the mail a run of the demo channel causes, at a real mail server', () => {
  const ada: DemoPerson = { first: 'Adelaide', last: 'Mailtest', email: 'adelaide.mailtest@example.com', phone: '212-555-0171' };

  it("mails the coordinator a link that opens the referral, with none of the participant's answers or contact values", async () => {
    await qualifiedRun('/', ada);
    const [mail] = await awaitMails(DEMO_COORDINATOR_EMAIL, 1);
    expect(mail!.parsed.subject).toBe('New referral for Midtown Heart Center (Healthy Heart Study)');
    for (const secret of [...Object.values(ada), '0171', '2125550171', '10001', '18-64', '18 to 64', 'pills', 'diagnosed', 'hypertension', 'blood pressure'])
      expect(whole(mail!), secret).not.toContain(secret.toLowerCase());
    const link = new URL(/\S+\/referrals\/view\/\d+/.exec(mail!.parsed.text ?? '')![0]);
    const referralId = link.pathname.split('/').at(-1);
    const page = await openAsStaff(link);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor(WAIT);
    await page.getByText(`Referral ${referralId}`).first().waitFor(WAIT);
    expect(new URL(page.url()).pathname).toBe(link.pathname);
    await page.context().close();

    const [confirmation] = await awaitMails(ada.email, 1);
    expect(confirmation!.parsed.subject).toBe('Thank you for your interest in Healthy Heart Study');
  }, 180_000);

  it('confirms a run in Spanish in Spanish', async () => {
    const eva: DemoPerson = { first: 'Evangelina', last: 'Correo', email: 'evangelina.correo@example.com', phone: '212-555-0172' };
    await qualifiedRun('/es', eva);
    const [mail] = await awaitMails(eva.email, 1);
    expect(mail!.parsed.subject).toBe('Gracias por su interés en Healthy Heart Study');
    expect(mail!.parsed.text).toContain('Midtown Heart Center (New York)');
  }, 180_000);

  it("stops the participant's mail once the confirmation's one-click unsubscribe is posted; staff still hear", async () => {
    const uma: DemoPerson = { first: 'Umberta', last: 'Optout', email: 'umberta.optout@example.com', phone: '212-555-0173' };
    await qualifiedRun('/', uma);
    const [confirmation] = await awaitMails(uma.email, 1);
    const unsubscribe = /^List-Unsubscribe:\s+<([^>]+)>/m.exec(confirmation!.raw)![1]!;
    expect(confirmation!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    // As a mail client posts it (RFC 8058).
    const posted = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.status).toBe(200);
    const confirmations = async () => (await api<{ meta: { total: number } }>('messages?kind=participantConfirmation')).meta.total;
    const confirmationsBefore = await confirmations();
    const coordinatorBefore = mailsTo(DEMO_COORDINATOR_EMAIL).length;
    await qualifiedRun('/', { ...uma, phone: '212-555-0174' });
    await awaitMails(DEMO_COORDINATOR_EMAIL, coordinatorBefore + 1);
    // The referral's messages were written with it, before its staff mail went: none for the participant.
    expect(await confirmations()).toBe(confirmationsBefore);
    expect(mailsTo(uma.email)).toHaveLength(1);
  }, 180_000);
});

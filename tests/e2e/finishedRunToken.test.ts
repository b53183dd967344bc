/**
 * The widget on a partner page built here, in Chromium against the real server with the demo
 * data: once the run is finished, the token the widget keeps in the partner origin's
 * localStorage opens nothing but the run's outcome (no entry, answer, site or contact, whatever
 * the entry id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoOnPartner, type DemoOnPartner } from './demoOnPartner';
import { newParticipant, snippet } from './partnerSite';
import { answerDemoByLabel } from './demoWidget';

let demo: DemoOnPartner;

beforeAll(async () => {
  demo = await startDemoOnPartner();
}, 180_000);

afterAll(async () => {
  await demo?.stop();
});

const html = (head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title>${head}</head><body>${body}</body></html>`;

describe("a finished run's stored token", () => {
  it('opens only its outcome: every entry, the answers, sites, contact fields and contact answer 404', async () => {
    const { context, page, problems } = await newParticipant(demo.browser);
    await page.goto(demo.partner.page('/finished', html('', `<div data-trial-widget></div>${snippet(demo.server.url, demo.channelId, demo.screenerId)}`)));
    await answerDemoByLabel(page, { qualified: true, person: { first: 'Fin', last: 'Ished', email: 'fin.ished@example.com', phone: '212-555-0177' } });
    expect(problems).toEqual([]);

    // What any script of the partner's page can read once the run is finished: its token.
    const stored = await page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith('trial-widget:')));
    expect(stored).toHaveLength(1);
    const kept = JSON.parse(stored[0]![1]) as { submissionId: string; credentials: string };
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${demo.server.url}/api/o-forms/${path}`, {
        ...init,
        headers: { 'Content-Type': 'application/vnd.api+json', 'Survey-Submission-Token': kept.credentials },
      });
    // Entry ids are sequential: every one this server made, with the finished run's token.
    const entries = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api(`o-form-container-entries/${i + 1}?include=oFormFieldEntries`).then((r) => r.status)),
    );
    expect(new Set(entries)).toEqual(new Set([404]));
    const answer = await api('o-form-submission-page/1', {
      method: 'PATCH',
      body: JSON.stringify({ data: { type: 'o-form-submission-pages', id: '1', attributes: { answers: {} } } }),
    });
    expect(answer.status).toBe(404);
    expect((await api(`o-form-submission-sites/${kept.submissionId}?zip=10001`)).status).toBe(404);
    expect((await api(`o-form-submission-contact-fields/${kept.submissionId}`)).status).toBe(404);
    const contact = await api(`o-form-submission-contact/${kept.submissionId}`, {
      method: 'POST',
      body: JSON.stringify({ data: { attributes: { engagementSiteLocationId: '1', values: {}, acceptTerms: true } } }),
    });
    expect(contact.status).toBe(404);
    const outcome = await api(`o-form-submission-outcome/${kept.submissionId}`);
    expect(outcome.status).toBe(200);
    expect(((await outcome.json()) as { meta: { outcome: string } }).meta.outcome).toBe('completed');
    await context.close();
  });
});

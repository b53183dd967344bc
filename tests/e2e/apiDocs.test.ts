/**
 * The API reference at /api/docs in Chromium: the vendored renderer draws the server's own
 * OpenAPI document under the page's Content-Security-Policy, asking nothing of another origin.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserForFile } from './browser';

const base = inject('baseUrl');
const browser = browserForFile();

describe('/api/docs', () => {
  it('renders every tag of the API, offline and without breaking its policy', async () => {
    const page = await browser().newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(base).origin && url.protocol.startsWith('http')) elsewhere.push(request.url());
    });
    const answer = await page.goto(`${base}/api/docs`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");

    // Redoc's side menu lists the document's operations by their summaries.
    await expect.poll(() => page.getByText('List sponsors').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Participant: save a page's answers and learn where they lead").count()).toBeGreaterThan(0);
    expect(await page.locator('h1').first().textContent()).toContain('Trial Recruit API');
    expect(
      problems.filter((p) => /Content Security Policy|Refused/i.test(p)),
      'policy violations',
    ).toEqual([]);
    expect(problems, 'errors in the console').toEqual([]);
    expect(elsewhere, 'requests to other origins').toEqual([]);
    await page.close();
  }, 90_000);
});

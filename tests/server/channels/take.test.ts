import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelFigures } from '../../../server/participant/channelFigures';
import { createHarness, type Harness } from '../harness';
import { channelOnScreener } from './channelOnScreener';

let h: Harness;
let admin: string;
let channelId: number;
let screenerId: number;

const share = async () => (await channelFigures(h.db, [channelId])).get(channelId)?.share;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  ({ screenerId, channelId } = await channelOnScreener(h, admin, { title: 'Social', domain: 'social.example', channelType: 'Social Media' }));
});
afterAll(async () => {
  await h.close();
});

describe('the hosted participant page', () => {
  it('mounts the widget for the channel in the public layout and counts each open in share', async () => {
    expect(await share()).toBe(0);
    const res = await h.request('GET', `/take/${channelId}`, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain(`<script async src="/widget.js" data-media-channel-id="${channelId}" data-screener-id="${screenerId}"></script>`);
    expect(html).toContain('<div data-trial-widget></div>');
    expect(html).toMatch(/<header>.*Trial Recruit/s);
    expect(html).toContain('<footer>');
    await h
      .request('GET', `/take/${channelId}?lang=es`, { headers: { Accept: 'text/html' } })
      .then(async (r) => expect(await r.text()).toContain('data-language="es"'));
    // The page's own text stays English whatever ?lang= asks: the widget names what it shows.
    const fr = await (await h.request('GET', `/take/${channelId}?lang=fr`, { headers: { Accept: 'text/html' } })).text();
    expect(fr).toContain('<html lang="en">');
    expect(fr).toContain('data-language="fr"');
    expect(await share()).toBe(3);
  });

  it('answers 404 for an unknown or malformed channel and ignores a bad language', async () => {
    expect((await h.request('GET', '/take/999999', { headers: { Accept: 'text/html' } })).status).toBe(404);
    expect((await h.request('GET', '/take/abc', { headers: { Accept: 'text/html' } })).status).toBe(404);
    const html = await (await h.request('GET', `/take/${channelId}?lang=%22%3E%3Cscript%3E`, { headers: { Accept: 'text/html' } })).text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('data-language');
  });
});

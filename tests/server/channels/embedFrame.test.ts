import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { embedProblems, mediaChannels, oFormSubmissions } from '../../../server/db/schema';
import { channelFigures } from '../../../server/participant/channelFigures';
import { createHarness, json, type Harness } from '../harness';
import { channelOnScreener } from './channelOnScreener';

let h: Harness;
let admin: string;
let channelId: number;
let screenerId: number;

const PARTNER = 'https://www.partner.example';
const frame = (query: Record<string, string> | string) =>
  h.request('GET', `/embed/frame?${typeof query === 'string' ? query : new URLSearchParams(query)}`, { headers: { Accept: 'text/html' } });
const PATH = '/news/heart-study';
const good = () => ({ 'media-channel-id': String(channelId), 'screener-id': String(screenerId), origin: PARTNER, path: PATH });
/** The partner page's address the frame's page hands the widget (its snippet's data-page-url). */
const pageUrlOf = (html: string) => /<script async src="\/widget.js"[^>]* data-page-url="([^"]*)">/.exec(html)?.[1];

/** What a request may never leave behind: rows of submissions, embed problems, channels, and the channel's figures. */
const written = async () => ({
  submissions: (await h.db.select({ n: count() }).from(oFormSubmissions))[0]?.n,
  problems: (await h.db.select({ n: count() }).from(embedProblems))[0]?.n,
  channels: (await h.db.select({ n: count() }).from(mediaChannels))[0]?.n,
  figures: (await channelFigures(h.db, [channelId])).get(channelId),
});

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  ({ screenerId, channelId } = await channelOnScreener(h, admin, {
    title: 'Framed',
    domain: 'www.partner.example',
    channelType: 'Partner Website',
    isolation: 'frame',
  }));
});
afterAll(async () => {
  await h.close();
});

describe("a framed widget's page", () => {
  it("runs the snippet's widget on the product's origin, frameable only by the channel's domain and the product itself", async () => {
    const before = await written();
    const res = await frame({ ...good(), language: 'es', 'field-partner_id': 'p"<7>&' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'self' http://www.partner.example:* https://www.partner.example:*");
    // Scripts: this origin and the relay by its hash, never inline at large.
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(csp).toContain("connect-src 'self'");
    // Framing is the CSP's to decide: no X-Frame-Options refusing every frame.
    expect(res.headers.get('x-frame-options')).toBeNull();
    const html = await res.text();
    expect(html).toContain('<div data-trial-widget></div>');
    expect(html).toContain(
      `<script async src="/widget.js" data-media-channel-id="${channelId}" data-screener-id="${screenerId}" data-language="es" data-field-partner_id="p&quot;&lt;7&gt;&amp;" data-page-url="${PARTNER}${PATH}"></script>`,
    );
    // The relay posts to the partner's origin only, and the hash in the policy is the relay's.
    expect(html).toContain(`<script data-parent="${PARTNER}">`);
    const relay = /<script data-parent="[^"]*">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    const { createHash } = await import('node:crypto');
    expect(csp).toContain(`'sha256-${createHash('sha256').update(relay).digest('base64')}'`);
    expect(relay).toContain('trial-widget:view');
    expect(relay).toContain('postMessage(m,to)');
    // The partner page's campaign parameters ride in the frame's own address, and in the page address the widget reads them from.
    const campaign = await frame({ ...good(), utm_source: 'newsletter', utm_campaign: 'winter & spring' });
    expect(campaign.status).toBe(200);
    expect(pageUrlOf(await campaign.text())).toBe(`${PARTNER}${PATH}?utm_source=newsletter&amp;utm_campaign=winter+%26+spring`);
    // Another port or scheme of the channel's domain is the same partner, as for the participant CORS.
    expect((await frame({ ...good(), origin: 'http://www.partner.example:8080' })).status).toBe(200);
    // The product's own pages may frame it too.
    expect((await frame({ ...good(), origin: 'http://localhost' })).status).toBe(200);
    expect(await written()).toEqual(before);
  });

  it("hands the widget the partner page's origin and path, as the browser gives them", async () => {
    const before = await written();
    const pages: [path: string, origin: string][] = [
      ['/', PARTNER],
      ['/caf%C3%A9/2026/%22quoted%22;v=1', PARTNER],
      ['//evil.example/page', PARTNER],
      ['/article', 'http://www.partner.example:8080'],
    ];
    for (const [path, origin] of pages) {
      const res = await frame({ ...good(), origin, path });
      expect(res.status, path).toBe(200);
      const page = pageUrlOf(await res.text());
      expect(page, path).toBe(`${origin}${path}`);
      // The origin is the one checked against the channel's domain, whatever the path looks like.
      expect(new URL(page!).origin, path).toBe(origin);
    }
    expect(await written()).toEqual(before);
  });

  it('refuses a page of another origin, naming the domain the channel allows, and writes nothing', async () => {
    const before = await written();
    for (const origin of ['https://evil.example', 'https://partner.example', 'https://www.partner.example.evil.example']) {
      const res = await frame({ ...good(), origin });
      expect(res.status, origin).toBe(403);
      expect((await json(res)).errors[0].detail).toBe(
        `Pages of ${origin} may not show this survey: its media channel allows pages of www.partner.example only.`,
      );
    }
    expect(await written()).toEqual(before);
  });

  it('answers an unknown channel with 404 and bad parameters with 400 naming each, writing nothing', async () => {
    const before = await written();
    const unknown = await frame({ ...good(), 'media-channel-id': '999999' });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).errors[0].detail).toBe("The media channel you're looking for is not here.");
    const cases: [string, string][] = [
      [`screener-id=${screenerId}&origin=${PARTNER}&path=/a`, 'media-channel-id'],
      [`media-channel-id=abc&screener-id=${screenerId}&origin=${PARTNER}&path=/a`, 'media-channel-id'],
      [`media-channel-id=${channelId}&origin=${PARTNER}&path=/a`, 'screener-id'],
      [`media-channel-id=${channelId}&screener-id=%22%3E%3Cscript%3E&origin=${PARTNER}&path=/a`, 'screener-id'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}`, 'origin'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=null`, 'origin'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}/page`, 'origin'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=javascript:alert(1)`, 'origin'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}&path=/a&language=%22%3E`, 'language'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}&path=/a&field-Bad%20Name=1`, 'field-Bad Name'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}&path=/a&field-long=${'x'.repeat(501)}`, 'field-long'],
      [`media-channel-id=${channelId}&media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}&path=/a`, 'media-channel-id'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}&path=/a&isolation=frame`, 'isolation'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}&path=/a&mediaChannelId=1`, 'mediaChannelId'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}&path=/a&utm_id=1`, 'utm_id'],
      [`media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}&path=/a&utm_source=a&utm_source=b`, 'utm_source'],
    ];
    // The partner page's path: missing, not a path, with a query or fragment, spaces or control characters, too long, twice.
    const base = `media-channel-id=${channelId}&screener-id=${screenerId}&origin=${PARTNER}`;
    for (const path of [
      null,
      '',
      'news',
      'https://evil.example/x',
      '/a?email=x@y.example',
      '/a#token',
      '/a b',
      ' /a',
      '/a\n',
      '/a\tb',
      '/a\u0000',
      '/a\u007f',
      '/café',
      '/a\\b',
      '/a/../b',
      `/${'x'.repeat(2000)}`,
    ]) {
      cases.push([path === null ? base : `${base}&path=${encodeURIComponent(path)}`, 'path']);
    }
    cases.push([`${base}&path=/a&path=/b`, 'path']);
    for (const [query, parameter] of cases) {
      const res = await frame(query);
      expect(res.status, query).toBe(400);
      const error = (await json(res)).errors[0];
      expect(error.source, query).toEqual({ parameter });
      expect(error.detail, query).toMatch(/\S/);
    }
    expect(await written()).toEqual(before);
  });
});

/**
 * Production serving (issue 10): cache headers by kind of file, compression as the client
 * accepts it, ETag revalidation, the health check when the database is gone, and the build's
 * size budgets.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { createHarness, type Harness } from './harness';
import { chooseEncoding, COMPRESS_INLINE_BYTES, compressBytes } from '../../server/http/compress';
import { BUDGETS, bundleBudgets, measureAdminFirstLoad, measureWidget, type OutputChunkLike } from '../../bundle-budgets';
import { builtDist } from '../support/builtDist';

let h: Harness;
/** The health check's test closes the database; it runs last. */
let closed = false;
let dist: string;
/** Text that compresses well and is larger than the compression threshold. */
const SCRIPT = `${'export const value = "the same line again and again";\n'.repeat(400)}`;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(4000, 7)]);

beforeAll(async () => {
  dist = builtDist({
    'admin/index.html': `<!doctype html><div id="root"></div><!-- ${'x'.repeat(2000)} -->`,
    'admin/assets/index-AbC123xy.js': SCRIPT,
    'admin/assets/logo-AbC123xy.png': PNG,
    'widget/widget.js': SCRIPT,
  });
  h = await createHarness({ DIST_DIR: dist });
});
afterAll(async () => {
  if (!closed) await h.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (p: string, headers: Record<string, string> = {}) => Promise.resolve(h.app.request(p, { headers }));
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('cache headers', () => {
  it('caches content-hashed assets for a year, immutable', async () => {
    const res = await get('/assets/index-AbC123xy.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates widget.js and index.html by ETag: 304 while unchanged, 200 after a rebuild', async () => {
    for (const p of ['/widget.js', '/', '/sponsors']) {
      const first = await get(p);
      expect(first.headers.get('cache-control'), p).toBe('no-cache');
      const etag = first.headers.get('etag');
      expect(etag, p).toMatch(/^"[\w-]+"$/);
      const again = await get(p, { 'If-None-Match': etag! });
      expect(again.status, p).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      // The cached copy's type must survive the merge (a cross-origin script is refused otherwise).
      expect(again.headers.get('content-type'), p).toBe(first.headers.get('content-type'));
      expect(await again.text()).toBe('');
      // Weak comparison: a proxy's W/ prefix still matches.
      expect((await get(p, { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
    }
    const before = (await get('/widget.js')).headers.get('etag');
    const file = path.join(dist, 'widget', 'widget.js');
    // Five seconds after the build it replaces, whatever the clock says now.
    const later = new Date(fs.statSync(file).mtimeMs + 5000);
    fs.writeFileSync(file, `${SCRIPT}// rebuilt\n`);
    fs.utimesSync(file, later, later);
    const rebuilt = await get('/widget.js', { 'If-None-Match': before! });
    expect(rebuilt.status).toBe(200);
    expect((await rebuilt.text()).endsWith('// rebuilt\n')).toBe(true);
    expect(rebuilt.headers.get('etag')).not.toBe(before);
  });
});

describe('compression', () => {
  it('answers built files in brotli or gzip as Accept-Encoding prefers, each its own ETag', async () => {
    const br = await get('/widget.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBody = await bytes(br);
    expect(zlib.brotliDecompressSync(brBody).toString()).toBe(fs.readFileSync(path.join(dist, 'widget', 'widget.js'), 'utf8'));
    expect(Number(br.headers.get('content-length'))).toBe(brBody.length);
    expect(brBody.length).toBeLessThan(SCRIPT.length / 10);

    const gz = await get('/assets/index-AbC123xy.js', { 'Accept-Encoding': 'gzip;q=1, br;q=0.5' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(await bytes(gz)).toString()).toBe(SCRIPT);

    const identity = await get('/assets/index-AbC123xy.js');
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toBe(SCRIPT);
    const etags = new Set([br, gz, identity].map((r) => r.headers.get('etag')));
    expect(etags.size).toBe(3);
    // The gzip copy's ETag does not validate the brotli one.
    expect((await get('/assets/index-AbC123xy.js', { 'Accept-Encoding': 'br', 'If-None-Match': gz.headers.get('etag')! })).status).toBe(200);
  });

  it('does not compress what is compressed already', async () => {
    const png = await get('/assets/logo-AbC123xy.png', { 'Accept-Encoding': 'br, gzip' });
    expect(png.headers.get('content-encoding')).toBeNull();
    expect((await bytes(png)).equals(PNG)).toBe(true);
  });

  it('compresses API JSON above the threshold and leaves small answers alone', async () => {
    const token = await h.token();
    const plain = await h.request('GET', '/api/countries?limit=100', { token });
    expect(plain.status).toBe(200);
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const res = await h.request('GET', '/api/countries?limit=100', { token, headers: { 'Accept-Encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
      expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/);
      const body = await bytes(res);
      expect(body.length).toBeLessThan(text.length / 2);
      expect(decode(body).toString()).toBe(text);
    }
    const small = await h.request('GET', '/api/health', { headers: { 'Accept-Encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('vary')).toBe('Accept-Encoding');
    // A small JSON:API answer (its text kept beside it) is left alone the same way.
    const error = await h.request('GET', '/api/countries?limit=abc', { token, headers: { 'Accept-Encoding': 'br' } });
    expect(error.status).toBe(400);
    expect(error.headers.get('content-encoding')).toBeNull();
    expect(error.headers.get('vary')).toBe('Accept-Encoding');
    expect(JSON.parse(await error.text()).errors[0].source.parameter).toBe('limit');
  });

  it('compresses JSON a route answered without the JSON:API serializer, read back from its body', async () => {
    const plain = await (await h.request('GET', '/api/openapi.json')).text();
    expect(plain.length).toBeGreaterThan(10_000);
    const res = await h.request('GET', '/api/openapi.json', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(zlib.gunzipSync(await bytes(res)).toString()).toBe(plain);
  });

  it('reads Accept-Encoding with q-values and wildcards', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0.2, gzip;q=0.8')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0')).toBeNull();
    expect(chooseEncoding('gzip;q=0, *')).toBe('br');
    expect(chooseEncoding('x-gzip')).toBe('gzip');
  });

  it('compresses small bodies on the event loop and large ones in the thread pool to the same bytes a client decodes', async () => {
    const line = (n: number) => `{"id":"${n}","type":"countries","attributes":{"name":"Country ${n}"}},`;
    const text = (length: number) => {
      let s = '';
      for (let n = 0; s.length < length; n++) s += line(n);
      return Buffer.from(s.slice(0, length));
    };
    for (const length of [1500, COMPRESS_INLINE_BYTES, COMPRESS_INLINE_BYTES + 1, 200_000]) {
      const raw = text(length);
      for (const use of ['dynamic', 'stored'] as const) {
        const br = await compressBytes(raw, 'br', use);
        const gz = await compressBytes(raw, 'gzip', use);
        expect(zlib.brotliDecompressSync(br).equals(raw)).toBe(true);
        expect(zlib.gunzipSync(gz).equals(raw)).toBe(true);
        expect(br.length).toBeLessThan(raw.length / 4);
        expect(gz.length).toBeLessThan(raw.length / 4);
      }
    }
  });
});

describe('request ids', () => {
  it("keeps a load balancer's request id and makes one otherwise", async () => {
    const kept = await h.request('GET', '/api/health', { headers: { 'X-Request-Id': 'lb-4f2a9c1e-0001' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-4f2a9c1e-0001');
    const replaced = await h.request('GET', '/api/health', { headers: { 'X-Request-Id': 'bad id\twith spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('bundle budgets', () => {
  const chunk = (fileName: string, size: number, extra: Partial<OutputChunkLike> = {}): OutputChunkLike => ({
    type: 'chunk',
    fileName,
    // Random bytes as hex: gzip gets them to about half, so the size is predictable.
    code: randomBytes(size / 2).toString('hex'),
    imports: [],
    ...extra,
  });

  it('counts the admin entry, the login chunk and their static imports, not the lazy sections', () => {
    const chunks = [
      chunk('index.js', 2000, { isEntry: true, imports: ['react.js'] }),
      chunk('react.js', 2000, { imports: ['shared.js'] }),
      chunk('shared.js', 1000),
      chunk('Login.js', 1000, { facadeModuleId: '/repo/admin/sections/auth/Login.tsx', imports: ['shared.js', 'form.js'] }),
      chunk('form.js', 1000),
      chunk('Sponsors.js', 50_000, { facadeModuleId: '/repo/admin/sections/sponsors/Index.tsx', imports: ['big.js'] }),
      chunk('big.js', 50_000),
    ];
    const report = measureAdminFirstLoad(chunks);
    expect(report.files).toEqual(['Login.js', 'form.js', 'index.js', 'react.js', 'shared.js']);
    expect(report.budget).toBe(BUDGETS.adminFirstLoadBytes);
    expect(report.bytes).toBeGreaterThan(1000);
    expect(report.bytes).toBeLessThan(10_000);
  });

  it('fails the build past a budget and prints the figures', () => {
    const run = (kind: 'widget' | 'admin', chunks: OutputChunkLike[]) => {
      const plugin: Plugin = bundleBudgets(kind);
      const logged: string[] = [];
      const context = {
        info: (m: string) => logged.push(m),
        error: (m: string) => {
          throw new Error(m);
        },
      };
      const hook = plugin.generateBundle as unknown as (this: typeof context, o: object, b: Record<string, OutputChunkLike>) => void;
      hook.call(context, {}, Object.fromEntries(chunks.map((c) => [c.fileName, c])));
      return logged;
    };
    // widget.js (the loader, an asset), the entry module with its static import, and the second file.
    const widget = (entry: number, later: number) => [
      { type: 'asset' as const, fileName: 'widget.js', source: randomBytes(200).toString('hex') },
      chunk('widget/embed.js', entry, { isEntry: true, imports: ['widget/shared.js'] }),
      chunk('widget/shared.js', 2000),
      chunk('widget/later.js', later),
    ];
    expect(run('widget', widget(4000, 4000))).toEqual([
      expect.stringMatching(/^widget before the first question: \d+\.\d kB gzipped, \d+ of 15360 B \(budget 15\.0 kB\)$/),
      expect.stringMatching(new RegExp(`^widget, whole run: \\d+\\.\\d kB gzipped, \\d+ of ${BUDGETS.widgetBytes} B \\(budget 21\\.5 kB\\)$`)),
    ]);
    // The first question over its budget, whole run within; then only the whole run over.
    expect(() => run('widget', widget(30_000, 1000))).toThrow(
      /over budget — widget before the first question: \d+\.\d kB gzipped, \d+ of 15360 B \(budget 15\.0 kB\), \d+\.\d kB too many; files: widget\.js, widget\/embed\.js, widget\/shared\.js$/,
    );
    expect(() => run('widget', widget(4000, 40_000))).toThrow(
      new RegExp(`over budget — widget, whole run: \\d+\\.\\d kB gzipped, \\d+ of ${BUDGETS.widgetBytes} B \\(budget 21\\.5 kB\\)`),
    );
    expect(() => run('admin', [chunk('index.js', 400_000, { isEntry: true })])).toThrow(
      /over budget — admin first load \(login screen\): \d+\.\d kB gzipped, \d+ of 153600 B \(budget 150\.0 kB\)/,
    );
    // A framed channel's page loads widget.js and the frame builder alone, held to the first question's budget.
    const framed = measureWidget([...widget(4000, 4000), { type: 'asset', fileName: 'widget/frame-abc.js', source: randomBytes(300).toString('hex') }])[2];
    expect(framed).toMatchObject({ figure: "widget on a framed channel's page", budget: 15360, files: ['widget.js', 'widget/frame-abc.js'] });
    expect(framed!.bytes).toBeLessThan(measureWidget(widget(4000, 4000))[0].bytes);
    const [first, whole] = measureWidget(widget(4000, 4000));
    expect(first.files).toEqual(['widget.js', 'widget/embed.js', 'widget/shared.js']);
    expect(whole.bytes - first.bytes).toBeGreaterThan(1500);
  });

  it('fails the admin build when a section is bundled with the entry instead of lazily', () => {
    const plugin: Plugin = bundleBudgets('admin');
    const context = {
      info: () => undefined,
      error: (m: string) => {
        throw new Error(m);
      },
    };
    const hook = plugin.generateBundle as unknown as (this: typeof context, o: object, b: Record<string, OutputChunkLike>) => void;
    const entry = chunk('index.js', 2000, { isEntry: true, moduleIds: ['/repo/admin/main.tsx', '/repo/admin/sections/sponsors/Index.tsx'] });
    expect(() => hook.call(context, {}, { 'index.js': entry })).toThrow(
      'admin sections in the entry chunk (import them through lazyScreen): /repo/admin/sections/sponsors/Index.tsx',
    );
  });
});

describe('health', () => {
  // Last in this file: it closes the database every other test here uses.
  it('answers 503 once the database is gone', async () => {
    const up = await h.request('GET', '/api/health');
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ status: 'ok', database: 'ok' });
    await h.close();
    closed = true;
    const down = await h.request('GET', '/api/health');
    expect(down.status).toBe(503);
    expect(down.headers.get('cache-control')).toBe('no-store');
    expect(await down.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { staleBundles } from '../../../server/bundles';
import { builtDist } from '../../support/builtDist';

let h: Harness;
let dist: string;

beforeAll(async () => {
  dist = builtDist({ 'admin/assets/main-abc123.js': 'console.log(1)' });
  fs.writeFileSync(path.join(os.tmpdir(), 'secret.txt'), 'secret');
  h = await createHarness({ DIST_DIR: dist });
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('serving the bundles', () => {
  it('serves the SPA for any deep link (history mode)', async () => {
    for (const p of ['/', '/sponsors/view/1', '/login', '/users/edit/3']) {
      const res = await h.app.request(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('id="root"');
    }
  });

  it('serves hashed assets as immutable and the widget revalidated', async () => {
    const asset = await h.app.request('/assets/main-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const widget = await h.app.request('/widget.js');
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-type')).toContain('javascript');
    expect(widget.headers.get('cache-control')).toBe('no-cache');
    // A partner's page may ask for it with a cache-busting parameter of its own: a file takes any.
    expect((await h.app.request('/widget.js?v=20261129')).status).toBe(200);
  });

  it('answers 404 for a missing asset instead of the SPA, and never leaves DIST_DIR', async () => {
    expect((await h.app.request('/assets/missing-000.js')).status).toBe(404);
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2f..%2fsecret.txt', '/%00']) {
      const res = await h.app.request(p);
      expect(await res.text()).not.toBe('secret');
    }
  });

  it('serves the demo partner page embedding the widget snippet', async () => {
    const res = await h.app.request('/demo/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<script async src="\/widget.js" data-media-channel-id="[^"]+" data-screener-id="[^"]+"><\/script>/);
  });
});

describe('staleBundles', () => {
  it('reports a bundle whose output is missing or older than a source', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'root-'));
    // Every file and folder gets a stated time: what is written now carries the machine's clock.
    const touch = (entry: string, at: string) => fs.utimesSync(path.join(root, entry), new Date(at), new Date(at));
    for (const dir of ['admin', 'core', 'widget', 'dist/admin', 'dist/widget']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, 'admin', 'main.tsx'), '');
    expect(staleBundles(root).map((b) => b.output)).toEqual(['dist/admin/index.html', 'dist/widget/widget.js']);
    for (const f of ['package.json', 'vite.config.admin.ts', 'vite.config.widget.ts']) fs.writeFileSync(path.join(root, f), '');
    fs.writeFileSync(path.join(root, 'dist/admin/index.html'), '');
    fs.writeFileSync(path.join(root, 'dist/widget/widget.js'), '');
    for (const source of ['admin/main.tsx', 'admin', 'core', 'widget', 'package.json', 'vite.config.admin.ts', 'vite.config.widget.ts'])
      touch(source, '2027-01-10T09:00:00Z');
    for (const output of ['dist/admin/index.html', 'dist/widget/widget.js']) touch(output, '2027-01-10T09:01:00Z');
    expect(staleBundles(root)).toEqual([]);
    fs.writeFileSync(path.join(root, 'admin', 'main.tsx'), 'changed');
    touch('admin/main.tsx', '2027-01-10T09:02:00Z');
    expect(staleBundles(root).map((b) => b.output)).toEqual(['dist/admin/index.html']);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('security headers', () => {
  it('serves the admin document with a CSP that forbids inline and foreign scripts and framing', async () => {
    const res = await h.app.request('/sponsors');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('sends nosniff and a referrer policy on API answers and errors alike', async () => {
    for (const res of [await h.app.request('/api/sponsors'), await h.app.request('/widget.js')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('adds HSTS when served over HTTPS', async () => {
    const res = await h.app.request('https://recruit.example/api/sponsors');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  });
});

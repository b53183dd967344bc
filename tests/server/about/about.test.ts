/**
 * GET /api/about and /api/about/licences: the product's facts read where they live, for any
 * signed-in staff member and nobody else.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseOf } from '../../../server/about/facts';
import { createHarness, json, type Harness } from '../harness';

const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'about-dist-'));
const built = new Date('2026-03-04T05:06:07.000Z');
let h: Harness;
let user: string;

beforeAll(async () => {
  fs.mkdirSync(path.join(dist, 'admin'));
  fs.writeFileSync(path.join(dist, 'admin', 'index.html'), '<!doctype html>');
  fs.utimesSync(path.join(dist, 'admin', 'index.html'), built, built);
  h = await createHarness({ DIST_DIR: dist });
  await h.createUser({ username: 'reader', roles: ['User'] });
  user = await h.token('reader', 'a-good-password');
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('about', () => {
  it("answers the product's name and version, the build's time and the database it runs on, to any staff member", async () => {
    expect((await h.request('GET', '/api/about')).status).toBe(401);
    const res = await h.request('GET', '/api/about', { token: user });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.type).toBe('about');
    expect(data.attributes).toMatchObject({ productName: pkg.name, version: pkg.version, buildTime: built.toISOString() });
    const kind = process.env.TEST_DB_KIND === 'postgres' ? 'PostgreSQL' : 'PGlite';
    expect(data.attributes.databaseKind).toBe(kind);
    expect(data.attributes.databaseVersion).toMatch(kind === 'PGlite' ? /^PostgreSQL \d+\.\d+ \(PGlite \d+\.\d+\.\d+\)$/ : /^PostgreSQL \d+/);
  });

  it('names each runtime dependency with the version installed and the licence it declares', async () => {
    expect((await h.request('GET', '/api/about/licences')).status).toBe(401);
    const { data } = await json(await h.request('GET', '/api/about/licences', { token: user }));
    expect(data.map((d: any) => d.attributes.name)).toEqual(Object.keys(pkg.dependencies).sort());
    const react = data.find((d: any) => d.id === 'react').attributes;
    const installed = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../node_modules/react/package.json'), 'utf8')) as { version: string };
    expect(react).toMatchObject({ version: installed.version, licence: 'MIT' });
    expect(data.every((d: any) => d.attributes.licence && d.attributes.licence !== 'Not installed')).toBe(true);
  });

  it('tells PGlite from PostgreSQL by how the database names itself', () => {
    expect(databaseOf('PostgreSQL 18.6 (PGlite 0.5.16) on wasm32-unknown-emscripten, compiled by emcc')).toEqual({
      databaseKind: 'PGlite',
      databaseVersion: 'PostgreSQL 18.6 (PGlite 0.5.16)',
    });
    expect(databaseOf('PostgreSQL 16.4 (Debian 16.4-1) on x86_64-pc-linux-gnu, compiled by gcc')).toEqual({
      databaseKind: 'PostgreSQL',
      databaseVersion: 'PostgreSQL 16.4',
    });
  });
});

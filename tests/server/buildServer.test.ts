/**
 * `npm start` runs the server compiled into dist/server/main.mjs (server/start.mjs): built in a
 * copy of the checkout here, it runs, its modules still resolve paths from their source files,
 * and it is built again exactly when something it was built from changes.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, serverBuildIsStale, serverBuildOf } from '../../server/build-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
let parent: string;
let root: string;

beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'server-build-'));
  root = path.join(parent, 'checkout');
  fs.mkdirSync(root);
  for (const entry of ['server', 'core', 'package.json', 'tsconfig.json']) {
    fs.cpSync(path.join(ROOT, entry), path.join(root, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
});
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

/** Gives `file` a modification time just after the last build's. */
const changedSinceBuild = (file: string) => {
  const later = new Date(fs.statSync(serverBuildOf(root).output).mtimeMs + 10);
  fs.utimesSync(path.join(root, file), later, later);
};

describe('the compiled server', () => {
  it('is built when missing, runs, and keeps each module’s own import.meta.url', async () => {
    expect(serverBuildIsStale(root)).toBe(true);
    const output = await buildServer(root);
    expect(output).toBe(serverBuildOf(root).output);
    expect(serverBuildIsStale(root)).toBe(false);

    const code = fs.readFileSync(output, 'utf8');
    // Paths resolved from a module's URL (the migrations beside server/db/open.ts) are the source's.
    expect(code).toContain(JSON.stringify(pathToFileURL(path.join(root, 'server/db/open.ts')).href));
    expect(code).not.toContain('import.meta.url');
    // What few requests need is imported at its first use, not at start (bench/README.md, Start-up and memory).
    for (const lazy of ['pdf-lib', 'read-excel-file/node', '@node-saml/node-saml', '@xmldom/xmldom']) {
      expect(code).not.toMatch(new RegExp(`^import [^;]* from ${JSON.stringify(lazy)};`, 'm'));
      expect(code).toContain(`import(${JSON.stringify(lazy)})`);
    }
    expect(fs.existsSync(`${output}.map`)).toBe(true);

    // It loads every module and runs main: a bad setting stops it with main's own message.
    let stderr = '';
    try {
      execFileSync(process.execPath, [path.join(root, 'server/start.mjs')], { cwd: root, env: { ...process.env, PORT: 'not-a-port' }, stdio: 'pipe' });
    } catch (error) {
      stderr = String((error as { stderr?: Buffer }).stderr);
    }
    expect(stderr).toMatch(/^Configuration error: .*PORT/m);
  });

  it('is built again when a module it was built from, or its configuration, is newer; not for other files', async () => {
    expect(serverBuildIsStale(root)).toBe(false);
    // Not part of the server (npm run dev's launcher).
    changedSinceBuild('server/dev.ts');
    expect(serverBuildIsStale(root)).toBe(false);

    changedSinceBuild('server/health/routes.ts');
    expect(serverBuildIsStale(root)).toBe(true);
    await buildServer(root);
    expect(serverBuildIsStale(root)).toBe(false);

    changedSinceBuild('tsconfig.json');
    expect(serverBuildIsStale(root)).toBe(true);
  });

  it('is built again in a moved checkout (source paths are compiled in)', async () => {
    await buildServer(root);
    const moved = path.join(parent, 'moved');
    fs.renameSync(root, moved);
    try {
      expect(serverBuildIsStale(moved)).toBe(true);
    } finally {
      fs.renameSync(moved, root);
    }
  });
});

/**
 * Builds the bundles exactly as `npm start` does (when missing or stale), then starts one
 * server for the browser tests. Each test file uses its own browser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBuilt } from '../../server/bundles';
import { startServer, type RunningServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    distDir: string;
  }
}

let server: RunningServer | undefined;

let distDir: string | undefined;

export async function setup(project: TestProject) {
  // Built with the same function and configs as `npm start`, into a folder of this run's own,
  // so runs side by side never serve each other's half-written bundles.
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trial-e2e-dist-'));
  await ensureBuilt(path.resolve(import.meta.dirname, '../..'), (msg) => console.log(`[e2e] ${msg}`), distDir);
  server = await startServer({ env: { DIST_DIR: distDir } });
  project.provide('baseUrl', server.url);
  project.provide('distDir', distDir);
}

export async function teardown() {
  if (server) {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
}

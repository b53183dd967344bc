/**
 * Builds the bundles exactly as `npm start` does (when missing or stale), then starts one
 * server for the browser tests. Each test file uses its own browser.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBuilt } from '../../server/bundles';
import { startServer, type RunningServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let server: RunningServer | undefined;

export async function setup(project: TestProject) {
  await ensureBuilt(path.resolve(import.meta.dirname, '../..'), (msg) => console.log(`[e2e] ${msg}`));
  server = await startServer();
  project.provide('baseUrl', server.url);
}

export async function teardown() {
  if (!server) return;
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

/**
 * Global setup of the PGlite server suite: one database migrated and seeded once per run,
 * dumped to a file that every harness loads. Starting PGlite from scratch (initdb) and migrating
 * costs ~3 s per harness; loading the dump ~0.6 s, and each test still gets a database of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/open';
import { seed } from '../../server/seed';
import { ADMIN_PASSWORD } from './harness-constants';

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trial-pglite-template-'));
  const file = path.join(dir, 'template.tar');
  const database = await openDatabase({ databaseUrl: null, dataDir: null });
  await database.migrate();
  await seed(database.db, { adminUsername: 'admin', adminPassword: ADMIN_PASSWORD, demoData: false });
  const dump = await database.dumpDataDir!();
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

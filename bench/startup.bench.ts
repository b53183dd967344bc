/**
 * Start-up as the README's quick start meets it: `npm start` on a fresh clone (no bundles, no
 * data: it builds both bundles, creates the embedded database, migrates and loads the demo
 * data), then a second `npm start` of the same clone (everything in place). Each figure is the
 * time from spawning the process to the first 200 from `GET /api/health`.
 *
 * The clone is a real `git clone` of this checkout's HEAD (uncommitted changes are not in it);
 * node_modules is linked from this checkout, because `npm install` is not part of the figure.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/e2e/server';
import type { BenchRow } from './harness';

const ROOT = path.resolve(import.meta.dirname, '..');
const LIMIT_MS = 120_000;

export default async function startup(): Promise<BenchRow[]> {
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-clone-'));
  try {
    execFileSync('git', ['clone', '--quiet', '--local', '--no-hardlinks', ROOT, clone]);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    const first = await timeStart(clone);
    const second = await timeStart(clone);
    return [
      {
        figure: 'npm start on a fresh clone (build bundles, create, migrate, demo data) → /api/health 200 (pglite)',
        value: first / 1000,
        unit: 's',
        budget: 30,
        lowerIsBetter: true,
      },
      { figure: 'second npm start (built, migrated) → /api/health 200 (pglite)', value: second / 1000, unit: 's', budget: 3, lowerIsBetter: true },
    ];
  } finally {
    fs.rmSync(clone, { recursive: true, force: true });
  }
}

/** Milliseconds from spawning `npm start`'s command in `cwd` to its first healthy answer; the process is stopped after. */
async function timeStart(cwd: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // npm start's command, without npm's own start-up in front of it.
  const child: ChildProcess = spawn(process.execPath, ['server/start.mjs', '--build-if-stale'], {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  try {
    for (;;) {
      if (exited !== undefined) throw new Error(`npm start exited with ${exited}:\n${stderr}`);
      if (performance.now() - started > LIMIT_MS) throw new Error(`npm start not healthy after ${LIMIT_MS} ms:\n${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  }
}

/**
 * Starts the real server process (server/start.mjs, which compiles the server when stale and runs
 * it in the same process, as `npm start` does) on a free port with its own DATA_DIR, and stops it
 * with SIGTERM like an operator would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const E2E_ADMIN_PASSWORD = 'e2e-admin-password';

export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  /** The server's own process (not a launcher's), so a signal reaches the server itself. */
  pid: number;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export const tempDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'trial-e2e-'));

export async function startServer(options: { dataDir?: string; env?: Record<string, string>; port?: number } = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const port = options.port ?? (await freePort());
  const root = path.resolve(import.meta.dirname, '../..');
  let log = '';
  // node itself rather than npm or a CLI that would run the server in a child of its own: a
  // SIGKILL sent to that launcher would leave the child serving.
  const child: ChildProcess = spawn(
    process.execPath,
    [...(process.env.SERVER_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVER_CPU_PROF_DIR}`] : []), 'server/start.mjs'],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        // The tests' record systems listen on this machine (tests/support/recordSystemReceiver.ts).
        RMS_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${log}`)), 60_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Serving on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => log,
    pid: child.pid!,
    exited,
    stop: () =>
      new Promise<void>((resolve) => {
        // Already gone (a signal leaves exitCode null and sets signalCode instead).
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/**
 * Writes rows into a DATA_DIR before its server starts (PGlite is one process at a time), for
 * states the product has no screen for yet. Migrates and seeds exactly as a start would.
 */
export async function prepareDataDir(dataDir: string, write: (db: import('../../server/db/open').Db) => Promise<void>): Promise<void> {
  const { openDatabase } = await import('../../server/db/open');
  const { seed } = await import('../../server/seed');
  const { phiCipher, resolvePhiKey } = await import('../../server/security/phi');
  const database = await openDatabase({ databaseUrl: null, dataDir });
  try {
    await database.migrate();
    // The key the server will find in DATA_DIR, so the demo's contacts open there.
    await seed(database.db, { adminUsername: 'admin', adminPassword: E2E_ADMIN_PASSWORD, demoData: true, phi: phiCipher(resolvePhiKey(null, dataDir)) });
    await write(database.db);
  } finally {
    await database.close();
  }
}

/** The participant API of a running server, as the fixture's helpers call it (no Origin: same-origin). */
export const participantOf = (server: Pick<RunningServer, 'url'>): import('../support/participantFixture').ParticipantRequester => ({
  request: (method, path, options = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/vnd.api+json', ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
});

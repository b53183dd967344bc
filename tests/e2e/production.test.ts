/**
 * The server process in production: SIGTERM answers the requests in flight and refuses new
 * connections, and a request still unfinished at SHUTDOWN_TIMEOUT_SECONDS is cut. (WORKERS
 * without PostgreSQL is refused by config: tests/server/config.test.ts; several processes:
 * multiProcess.test.ts.)
 */
import fs from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../server/db/scratch';
import { startServer } from './server';
import { postgresReachable, TEST_POSTGRES_URL } from './postgres';

/** A raw connection, so the test decides when each byte of a request is sent. */
function connect(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  return {
    socket,
    closed,
    received: () => received,
    /** Resolves once `received` satisfies `done`. */
    until: (done: (text: string) => boolean, ms = 15_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out; received so far:\n${received}`)), ms);
        const check = () => {
          if (!done(received)) return;
          clearTimeout(timer);
          socket.off('data', check);
          resolve(received);
        };
        socket.on('data', check);
        check();
      }),
  };
}

const waitFor = async (condition: () => boolean, ms = 15_000) => {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('graceful shutdown', () => {
  it('answers the request in flight, refuses new connections, and cuts what outlasts the timeout', async () => {
    // PostgreSQL when the machine has one: it starts several times faster than a fresh PGlite,
    // and shutdown is the same either way (the database closes last).
    const scratch = (await postgresReachable()) ? await createScratchDatabase(TEST_POSTGRES_URL, 'shutdown') : null;
    const server = await startServer({
      env: { DEMO_DATA: 'false', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_SECONDS: '3', ...(scratch ? { DATABASE_URL: scratch.url } : {}) },
    });
    try {
      const body = JSON.stringify({ data: { username: 'admin', password: 'not the password' } });
      const half = body.length >> 1;
      const head = (length: number) => `POST /api/jwt/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

      // Both connections answer one request first, so the server is surely tracking them.
      const inFlight = connect(server.url);
      const stuck = connect(server.url);
      for (const conn of [inFlight, stuck]) {
        conn.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        await conn.until((t) => t.includes('"status":"ok"'));
        conn.socket.write(head(body.length) + body.slice(0, half));
      }
      await new Promise((r) => setTimeout(r, 500));

      const signalled = Date.now();
      process.kill(server.pid, 'SIGTERM');
      await waitFor(() => server.output().includes('"msg":"stopping"'));
      await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();

      inFlight.socket.write(body.slice(half));
      const answered = await inFlight.until((t) => t.includes('Invalid username or password.'));
      const second = answered.slice(answered.lastIndexOf('HTTP/1.1 '));
      expect(second).toMatch(/^HTTP\/1\.1 401/);
      expect(second.toLowerCase()).toContain('connection: close');
      await inFlight.closed;

      // The other request never finishes its body: the timeout ends the process anyway.
      expect(await server.exited).toBe(1);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(2500);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      await stuck.closed;
      expect(server.output()).toContain('shutdown timeout');
    } finally {
      await server.stop();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
      await scratch?.drop();
    }
  });
});

/**
 * Kept-alive connections after a refused body, on the real Node server (server/http/serve.ts):
 * a client sends three requests in a row on one connection, the first refused (413, 415, 400,
 * 404), for every class of route. Each refused answer either says `Connection: close` or leaves
 * the connection fully usable; no request after it fails on the socket.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp } from '../../../server/http/serve';
import { IDP_CERT } from '../../support/saml-idp';
import { createHarness, type Harness } from '../harness';

let h: Harness;
let port: number;
let server: http.Server;
let token: string;

beforeAll(async () => {
  h = await createHarness({
    UPLOAD_LIMIT_MB: '1',
    PUBLIC_URL: 'http://app.test',
    SSO_SERVICES: 'duo',
    SSO_DUO_ENTRY_POINT: 'http://idp.test/sso',
    SSO_DUO_CERT: IDP_CERT,
  });
  ({ server } = serveApp(h.app, { port: 0, hostname: '127.0.0.1' }));
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
  token = await h.token();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

interface Sent {
  status: number | null;
  connection: string | undefined;
  /** The client's end of the connection, to tell one connection from another. */
  socket: string;
  reused: boolean;
  error?: string;
}

interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent in one piece with its Content-Length, or as chunks without one. */
  body?: string | Buffer | Buffer[];
}

function send(agent: http.Agent, call: Call): Promise<Sent> {
  return new Promise((resolve) => {
    const chunked = Array.isArray(call.body);
    const headers: Record<string, string | number> = { ...call.headers };
    if (call.body !== undefined && !chunked) headers['Content-Length'] = Buffer.byteLength(call.body as string | Buffer);
    const req = http.request({ host: '127.0.0.1', port, method: call.method, path: call.path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? null, connection: res.headers.connection, socket: `${req.socket?.localPort}`, reused: req.reusedSocket }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ status: null, connection: undefined, socket: '', reused: req.reusedSocket, error: error.code ?? error.message }),
    );
    if (chunked) {
      for (const chunk of call.body as Buffer[]) req.write(chunk);
      req.end();
    } else req.end(call.body);
  });
}

const JSON_TYPE = { 'Content-Type': 'application/vnd.api+json' };
const over1Mb = (attributes: Record<string, unknown> = {}) =>
  JSON.stringify({ data: { type: 'x', attributes: { ...attributes, filler: 'x'.repeat(1024 * 1024 + 10) } } });
let attempts = 0;
/** Then a failing sign-in with a body (a username of its own each time: five failures lock one), and a read. */
const followUps = (): Call[] => [
  {
    method: 'POST',
    path: '/api/jwt/login?t=a',
    headers: JSON_TYPE,
    body: JSON.stringify({ data: { username: `nobody-${++attempts}`, password: 'not-the-password' } }),
  },
  { method: 'GET', path: '/api/health' },
];

async function threeInARow(refused: Call, expectedStatus: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await send(agent, refused);
    const next = [];
    for (const call of followUps()) next.push(await send(agent, call));
    expect(first.error, 'the refused request itself').toBeUndefined();
    expect(first.status).toBe(expectedStatus);
    expect(next.map((r) => r.error ?? r.status)).toEqual([401, 200]);
    // Either the refused answer said it closes, or its connection carried the next requests.
    if (first.connection !== 'close') expect(next.map((r) => r.socket)).toEqual([first.socket, first.socket]);
    // The connection after a close is one connection too.
    expect(next[1]!.socket).toBe(next[0]!.socket);
    return first;
  } finally {
    agent.destroy();
  }
}

describe('a body over the limit', () => {
  const routes: [string, Call][] = [
    ['sign-in', { method: 'POST', path: '/api/jwt/login?t=a', headers: JSON_TYPE, body: over1Mb() }],
    ['refresh', { method: 'POST', path: '/api/jwt/refresh', headers: JSON_TYPE, body: over1Mb() }],
    ['sign-out', { method: 'POST', path: '/api/jwt/logout', headers: JSON_TYPE, body: over1Mb() }],
    ['a participant POST', { method: 'POST', path: '/api/o-forms/o-form-submissions', headers: JSON_TYPE, body: over1Mb() }],
    ['a participant PATCH', { method: 'PATCH', path: '/api/o-forms/o-form-submission-page/1', headers: JSON_TYPE, body: over1Mb() }],
    [
      'a staff write with a bearer token',
      { method: 'POST', path: '/api/sponsors', headers: { ...JSON_TYPE, Authorization: `Bearer placeholder` }, body: over1Mb() },
    ],
    [
      'an upload',
      {
        method: 'POST',
        path: '/api/engagements-o-files/1',
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        body: Buffer.alloc(1200 * 1024, 'a'),
      },
    ],
  ];
  for (const [name, call] of routes) {
    it(`answers 413 and closes the connection: ${name}`, async () => {
      const withToken = call.headers?.Authorization ? { ...call, headers: { ...call.headers, Authorization: `Bearer ${token}` } } : call;
      const first = await threeInARow(withToken, 413);
      expect(first.connection).toBe('close');
    });
  }

  it('answers 413 to a body without a length once it passes the limit', async () => {
    const chunks = Array.from({ length: 24 }, () => Buffer.alloc(64 * 1024, 'a'));
    const first = await threeInARow({ method: 'POST', path: '/api/jwt/login?t=a', headers: JSON_TYPE, body: chunks }, 413);
    expect(first.connection).toBe('close');
  });
});

describe('other refused bodies', () => {
  it('415 for a body of another type, unread', async () => {
    await threeInARow({ method: 'POST', path: '/api/jwt/login?t=a', headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(512 * 1024) }, 415);
  });

  it('400 for a body that is not JSON, read whole: the connection stays in use', async () => {
    const first = await threeInARow({ method: 'POST', path: '/api/o-forms/o-form-submissions', headers: JSON_TYPE, body: '{"data":' }, 400);
    expect(first.connection).not.toBe('close');
  });

  it('413 for a form over 1 MB posted to single sign-on', async () => {
    const first = await threeInARow(
      {
        method: 'POST',
        path: '/jwt/saml/acs/duo',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `SAMLResponse=${'a'.repeat(1100 * 1024)}`,
      },
      413,
    );
    expect(first.connection).toBe('close');
  });

  it('404 for a form posted to single sign-on that is not configured', async () => {
    await threeInARow(
      {
        method: 'POST',
        path: '/jwt/saml/acs/nowhere',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `SAMLResponse=${'a'.repeat(512 * 1024)}`,
      },
      404,
    );
  });
});

/**
 * Access-token attacks: none of these may reach a protected route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from 'hono/jwt';
import { ADMIN_PASSWORD, createHarness, type Harness } from '../server/harness';

let h: Harness;
let access: string;
let refresh: string;

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  h = await createHarness();
  const { body } = await h.login('admin', ADMIN_PASSWORD);
  access = body.access!;
  refresh = body.refresh!;
});
afterAll(async () => {
  await h.close();
});

async function refused(token: string) {
  const res = await h.request('GET', '/api/users/me', { token });
  expect(res.status).toBe(401);
}

describe('access tokens', () => {
  it('the genuine one works (control)', async () => {
    expect((await h.request('GET', '/api/users/me', { token: access })).status).toBe(200);
  });

  it('alg none is refused', async () => {
    await refused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: '1', typ: 'access', exp: now() + 600 })}.`);
  });

  it('another algorithm with the same secret is refused', async () => {
    await refused(await sign({ sub: '1', typ: 'access', exp: now() + 600 }, h.jwtSecret, 'HS512'));
  });

  it('an expired token is refused', async () => {
    await refused(await sign({ sub: '1', typ: 'access', exp: now() - 1 }, h.jwtSecret, 'HS256'));
  });

  it('a token not yet valid is refused', async () => {
    await refused(await sign({ sub: '1', typ: 'access', nbf: now() + 600, exp: now() + 1200 }, h.jwtSecret, 'HS256'));
  });

  it('a refresh token used as an access token is refused', async () => {
    await refused(refresh);
  });

  it('a tampered payload under the original signature is refused', async () => {
    const [header, , signature] = access.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    await refused(`${header}.${b64({ ...payload, sub: '2' })}.${signature}`);
  });

  it('a token for a user that does not exist is refused', async () => {
    await refused(await sign({ sub: '999999', typ: 'access', exp: now() + 600 }, h.jwtSecret, 'HS256'));
  });
});

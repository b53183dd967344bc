/**
 * Access-token attacks: none of these may reach a protected route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { sign } from 'hono/jwt';
import { ADMIN_PASSWORD, createHarness, type Harness } from '../server/harness';

let h: Harness;
let access: string;
let refresh: string;

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
// The server's clock stands at one instant for the whole file; tokens are dated from it.
const now = () => Math.floor(h.clock().getTime() / 1000);

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2027-07-01T12:00:00Z');
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

  it('an expired token is refused, from the second it expires', async () => {
    await refused(await sign({ sub: '1', typ: 'access', exp: now() - 1 }, h.jwtSecret, 'HS256'));
    await refused(await sign({ sub: '1', typ: 'access', exp: now() }, h.jwtSecret, 'HS256'));
    expect((await h.request('GET', '/api/users/me', { token: await sign({ sub: '1', typ: 'access', exp: now() + 1 }, h.jwtSecret, 'HS256') })).status).toBe(
      200,
    );
  });

  it('a token without an expiry is refused, though everything else about it is right', async () => {
    await refused(await sign({ sub: '1', typ: 'access', iat: now(), nbf: now() }, h.jwtSecret, 'HS256'));
    // Signed with our key, but an expiry that is not a time is none either.
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1', typ: 'access', exp: String(now() + 600) })}`;
    await refused(`${unsigned}.${createHmac('sha256', h.jwtSecret).update(unsigned).digest('base64url')}`);
  });

  it('a token not yet valid is refused', async () => {
    await refused(await sign({ sub: '1', typ: 'access', nbf: now() + 600, exp: now() + 1200 }, h.jwtSecret, 'HS256'));
    // Signed with our key, but a claim that is not a time is no time at all.
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1', typ: 'access', nbf: 'soon', exp: now() + 1200 })}`;
    await refused(`${unsigned}.${createHmac('sha256', h.jwtSecret).update(unsigned).digest('base64url')}`);
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

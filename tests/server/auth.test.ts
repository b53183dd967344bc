import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { sign } from 'hono/jwt';
import { authenticator } from 'otplib';
import { loginAttempts, refreshTokens, users } from '../../server/db/schema';
import { LOGIN_MESSAGES } from '../../server/routes/auth';
import { ADMIN_PASSWORD, createHarness, json, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('POST /api/jwt/login', () => {
  it('signs in the first-start admin with both staff admin roles', async () => {
    const { status, body } = await h.login('admin', ADMIN_PASSWORD);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.access).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.refresh).toMatch(/^[\w-]{40,}$/);
    expect(body.data?.user?.roles.map((r) => r.name).sort()).toEqual(['Admin', 'Super User']);
  });

  it('accepts the username in any case', async () => {
    const { body } = await h.login('ADMIN', ADMIN_PASSWORD);
    expect(body.success).toBe(true);
  });

  it('answers one message for a wrong password and an unknown user (no enumeration)', async () => {
    const wrong = await h.login('admin', 'not the password');
    const unknown = await h.login('nobody-here', 'whatever-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ success: false, data: { message: LOGIN_MESSAGES.invalid } });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses inactive users even with the right password', async () => {
    await h.createUser({ username: 'sleepy', password: 'sleepy-password', isActive: false });
    const { status, body } = await h.login('sleepy', 'sleepy-password');
    expect(status).toBe(401);
    expect(body.success).toBe(false);
    expect(body.access).toBeUndefined();
    expect(body.data?.message).toBe(LOGIN_MESSAGES.inactive);
  });

  it('answers a malformed body with success:false and a message, not a 500', async () => {
    for (const body of ['{', '[]', '{"data":{}}', '{"data":{"username":"a","password":5}}']) {
      const res = await h.request('POST', '/api/jwt/login?t=a', { body });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const res = await h.request('POST', '/api/jwt/login?t=a', { body: { data: { username: '', password: '' } } });
    const body = await json(res);
    expect(res.status).toBe(422);
    expect(body.success).toBe(false);
    expect(body.data.message).toBe(LOGIN_MESSAGES.badRequest);
  });

  it('locks a username for 15 minutes after five failures within 15 minutes', async () => {
    await h.createUser({ username: 'victim', password: 'victim-password' });
    for (let i = 0; i < 5; i++) expect((await h.login('victim', `guess-${i}`)).status).toBe(401);
    const locked = await h.login('victim', 'victim-password');
    expect(locked.status).toBe(429);
    expect(locked.body.success).toBe(false);
    expect(locked.body.data?.message).toBe(LOGIN_MESSAGES.locked(15));
    // Another username is not affected: the counter is per username.
    expect((await h.login('admin', ADMIN_PASSWORD)).body.success).toBe(true);

    // Failures older than the window no longer count.
    await h.db
      .update(loginAttempts)
      .set({ created: new Date(Date.now() - 16 * 60 * 1000) })
      .where(eq(loginAttempts.username, 'victim'));
    expect((await h.login('victim', 'victim-password')).body.success).toBe(true);
  });
});

describe('two-factor sign-in', () => {
  const secret = authenticator.generateSecret(20);
  let userId: number;
  beforeAll(async () => {
    userId = await h.createUser({ username: 'totp-user', password: 'totp-password' });
    await h.db.update(users).set({ totpSecret: secret, secretVerified: true }).where(eq(users.id, userId));
  });

  it('asks for the code when the secret is verified and none was sent', async () => {
    const { status, body } = await h.login('totp-user', 'totp-password');
    expect(status).toBe(200);
    expect(body.success).toBe(false);
    expect(body.access).toBeUndefined();
    expect(body.data).toEqual({ secret_verified: true, message: LOGIN_MESSAGES.codeNeeded });
  });

  it('refuses a wrong code with its message', async () => {
    const current = authenticator.generate(secret);
    const wrong = String((Number(current) + 1) % 1_000_000).padStart(6, '0');
    const { status, body } = await h.login('totp-user', 'totp-password', wrong);
    expect(status).toBe(401);
    expect(body.data?.message).toBe(LOGIN_MESSAGES.codeInvalid);
  });

  it('accepts a valid code once, then refuses the same code', async () => {
    const code = authenticator.generate(secret);
    const first = await h.login('totp-user', 'totp-password', code);
    expect(first.body.success).toBe(true);
    expect(first.body.access).toBeTruthy();
    const again = await h.login('totp-user', 'totp-password', code);
    expect(again.status).toBe(401);
    expect(again.body.data?.message).toBe(LOGIN_MESSAGES.codeReused);
  });

  it('refuses a code that is not six digits before checking it', async () => {
    const { status, body } = await h.login('totp-user', 'totp-password', '12ab');
    expect(status).toBe(422);
    expect(body.data?.message).toMatch(/6-digit code/);
  });
});

describe('refresh and logout', () => {
  it('rotates the refresh token; a reused one is refused and revokes the family', async () => {
    const { body } = await h.login('admin', ADMIN_PASSWORD);
    const first = body.refresh!;
    const r1 = await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: first } });
    expect(r1.status).toBe(200);
    const rotated = await json(r1);
    expect(rotated.success).toBe(true);
    expect(rotated.refresh).not.toBe(first);
    expect((await h.request('GET', '/api/users/me', { token: rotated.access })).status).toBe(200);

    const reuse = await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: first } });
    expect(reuse.status).toBe(401);
    expect((await json(reuse)).success).toBe(false);
    // The thief's reuse also ended the legitimate descendant.
    const descendant = await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: rotated.refresh } });
    expect(descendant.status).toBe(401);
  });

  it('logout revokes the refresh token', async () => {
    const { body } = await h.login('admin', ADMIN_PASSWORD);
    const out = await h.request('POST', '/api/jwt/logout', { body: { refresh_token: body.refresh } });
    expect(await json(out)).toEqual({ success: true });
    const after = await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: body.refresh } });
    expect(after.status).toBe(401);
  });

  it('refuses an expired refresh token and an unknown one', async () => {
    const { body } = await h.login('admin', ADMIN_PASSWORD);
    await h.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: body.refresh } })).status).toBe(401);
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: 'made-up' } })).status).toBe(401);
    expect((await h.request('POST', '/api/jwt/refresh', { body: {} })).status).toBe(422);
  });

  it('ends a session idle for 30 minutes, and any session 12 hours after sign-in', async () => {
    const idle = (await h.login('admin', ADMIN_PASSWORD)).body.refresh!;
    const [row] = await h.db.select().from(refreshTokens).orderBy(desc(refreshTokens.id)).limit(1);
    // Issued for the idle window only.
    expect(Math.round((row!.expiresAt.getTime() - row!.created.getTime()) / 60_000)).toBe(30);
    await h.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(refreshTokens.id, row!.id));
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: idle } })).status).toBe(401);

    // In use all along, but signed in 12 hours ago: the next refresh is refused.
    const busy = (await h.login('admin', ADMIN_PASSWORD)).body.refresh!;
    const [first] = await h.db.select().from(refreshTokens).orderBy(desc(refreshTokens.id)).limit(1);
    await h.db
      .update(refreshTokens)
      .set({ created: new Date(Date.now() - 12 * 3600 * 1000 - 1000) })
      .where(eq(refreshTokens.familyId, first!.familyId));
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: busy } })).status).toBe(401);

    // Near the 12 hours, a rotated token does not outlive them.
    const late = (await h.login('admin', ADMIN_PASSWORD)).body.refresh!;
    const [fresh] = await h.db.select().from(refreshTokens).orderBy(desc(refreshTokens.id)).limit(1);
    const signedIn = new Date(Date.now() - (12 * 3600 - 600) * 1000);
    await h.db.update(refreshTokens).set({ created: signedIn }).where(eq(refreshTokens.familyId, fresh!.familyId));
    const rotated = await json(await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: late } }));
    expect(rotated.success).toBe(true);
    const [next] = await h.db.select().from(refreshTokens).orderBy(desc(refreshTokens.id)).limit(1);
    expect(next!.expiresAt.getTime()).toBeLessThanOrEqual(signedIn.getTime() + 12 * 3600 * 1000 + 1000);
  });

  it('refuses a refresh for a user deactivated since', async () => {
    const id = await h.createUser({ username: 'leaver', password: 'leaver-password' });
    const { body } = await h.login('leaver', 'leaver-password');
    await h.db.update(users).set({ isActive: false }).where(eq(users.id, id));
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: body.refresh } })).status).toBe(401);
    expect((await h.request('GET', '/api/users/me', { token: body.access })).status).toBe(401);
  });
});

describe('GET /api/users/me and access tokens', () => {
  it('answers the user with roles and sponsors included', async () => {
    const res = await h.request('GET', '/api/users/me', { token: await h.token() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    const doc = await json(res);
    expect(doc.data.type).toBe('users');
    expect(doc.data.attributes.username).toBe('admin');
    expect(doc.data.attributes).not.toHaveProperty('passwordHash');
    expect(doc.data.attributes).not.toHaveProperty('totpSecret');
    expect(doc.included.map((r: { attributes: { name: string } }) => r.attributes.name).sort()).toEqual(['Admin', 'Super User']);
  });

  it('is 401 without a token, with a bad one, an expired one, alg none or another key', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ sub: '1', typ: 'access', exp: now - 10 }, h.jwtSecret, 'HS256');
    const otherKey = await sign({ sub: '1', typ: 'access', exp: now + 600 }, 'another-secret-of-enough-length!!', 'HS256');
    const notAccess = await sign({ sub: '1', typ: 'refresh', exp: now + 600 }, h.jwtSecret, 'HS256');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: '1', typ: 'access', exp: now + 600 })).toString('base64url');
    const none = `${header}.${payload}.`;
    for (const token of [undefined, 'garbage', expired, otherKey, notAccess, none]) {
      const res = await h.request('GET', '/api/users/me', { token });
      expect(res.status).toBe(401);
      const doc = await json(res);
      expect(doc.errors[0].status).toBe('401');
    }
  });
});

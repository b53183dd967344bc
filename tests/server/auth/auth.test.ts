import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { sign } from 'hono/jwt';
import { authenticator } from 'otplib';
import { refreshTokens, users } from '../../../server/db/schema';
import { LOGIN_MESSAGES, LOGOUT_MESSAGES } from '../../../server/auth/routes';
import { ADMIN_PASSWORD, useHarness, json, type Harness } from '../harness';

let h: Harness;
useHarness((harness) => {
  h = harness;
});
afterEach(() => h.clock.release());

const MINUTE = 60_000;
/** The six-digit code an authenticator app shows at `instant`. */
const codeAt = (secret: string, instant: Date) => authenticator.clone({ epoch: instant.getTime() }).generate(secret);

describe('GET /api/jwt/sso-services', () => {
  it('names none on a server without single sign-on', async () => {
    const res = await h.app.request('/api/jwt/sso-services');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ services: [] });
  });
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

  it('locks a username for 15 minutes from the fifth failure within 15 minutes', async () => {
    h.clock.set('2027-03-01T09:00:00Z');
    await h.createUser({ username: 'victim', password: 'victim-password' });
    // Four failures at 09:00–09:03 and a fifth at 09:14: five within 15 minutes.
    for (let i = 0; i < 4; i++) {
      expect((await h.login('victim', `guess-${i}`)).status).toBe(401);
      h.clock.advance(MINUTE);
    }
    h.clock.set('2027-03-01T09:14:00Z');
    expect((await h.login('victim', 'guess-4')).status).toBe(401);
    const locked = await h.login('victim', 'victim-password');
    expect(locked.status).toBe(429);
    expect(locked.body.success).toBe(false);
    expect(locked.body.data?.message).toBe(LOGIN_MESSAGES.locked(15));
    // Another username is not affected: the counter is per username.
    expect((await h.login('admin', ADMIN_PASSWORD)).body.success).toBe(true);

    // Locked until 09:29, the fifth failure's 15 minutes; attempts while locked do not extend it.
    h.clock.set('2027-03-01T09:28:30Z');
    const late = await h.request('POST', '/api/jwt/login?t=a', { body: { data: { username: 'victim', password: 'victim-password', lang: 'en' } } });
    expect(late.status).toBe(429);
    expect(late.headers.get('retry-after')).toBe('60');
    expect((await json(late)).data.message).toBe(LOGIN_MESSAGES.locked(1));
    h.clock.set('2027-03-01T09:29:00Z');
    expect((await h.login('victim', 'victim-password')).body.success).toBe(true);
  });

  it('does not lock for five failures spread over more than 15 minutes', async () => {
    h.clock.set('2027-03-02T09:00:00Z');
    await h.createUser({ username: 'slow-typist', password: 'slow-password' });
    for (let i = 0; i < 4; i++) expect((await h.login('slow-typist', `guess-${i}`)).status).toBe(401);
    // The first four are 15 minutes old by the fifth, so only one failure is within the window.
    h.clock.advance(15 * MINUTE);
    expect((await h.login('slow-typist', 'guess-4')).status).toBe(401);
    expect((await h.login('slow-typist', 'slow-password')).body.success).toBe(true);
  });

  it('starts the count again after a successful sign-in', async () => {
    h.clock.set('2027-03-03T09:00:00Z');
    await h.createUser({ username: 'forgetful', password: 'forgetful-password' });
    for (let i = 0; i < 4; i++) expect((await h.login('forgetful', `guess-${i}`)).status).toBe(401);
    h.clock.advance(MINUTE);
    expect((await h.login('forgetful', 'forgetful-password')).body.success).toBe(true);
    h.clock.advance(MINUTE);
    // Eight failures within 15 minutes, but only four since the success: not locked.
    for (let i = 0; i < 4; i++) expect((await h.login('forgetful', `again-${i}`)).status).toBe(401);
    expect((await h.login('forgetful', 'forgetful-password')).body.success).toBe(true);
    h.clock.advance(MINUTE);
    // Five since that success: locked.
    for (let i = 0; i < 5; i++) expect((await h.login('forgetful', `more-${i}`)).status).toBe(401);
    expect((await h.login('forgetful', 'forgetful-password')).status).toBe(429);
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
    const at = new Date('2027-04-01T10:00:10Z');
    h.clock.set(at);
    // A code that is none of the three steps the server accepts at this instant.
    const accepted = [-1, 0, 1].map((step) => codeAt(secret, new Date(at.getTime() + step * 30_000)));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !accepted.includes(code))!;
    const { status, body } = await h.login('totp-user', 'totp-password', wrong);
    expect(status).toBe(401);
    expect(body.data?.message).toBe(LOGIN_MESSAGES.codeInvalid);
  });

  it('accepts a valid code once, then refuses the same code', async () => {
    const at = new Date('2027-04-02T10:00:10Z');
    h.clock.set(at);
    const code = codeAt(secret, at);
    const first = await h.login('totp-user', 'totp-password', code);
    expect(first.body.success).toBe(true);
    expect(first.body.access).toBeTruthy();
    const again = await h.login('totp-user', 'totp-password', code);
    expect(again.status).toBe(401);
    expect(again.body.data?.message).toBe(LOGIN_MESSAGES.codeReused);
  });

  it('allows one 30-second step of drift, not two', async () => {
    // Steps start on the half-minute: 10:00:00–10:00:29 is one step.
    h.clock.set('2027-04-03T10:00:10Z');
    expect((await h.login('totp-user', 'totp-password', codeAt(secret, new Date('2027-04-03T09:59:20Z')))).body.data?.message).toBe(LOGIN_MESSAGES.codeInvalid);
    expect((await h.login('totp-user', 'totp-password', codeAt(secret, new Date('2027-04-03T09:59:50Z')))).body.success).toBe(true);
    h.clock.set('2027-04-03T10:05:10Z');
    expect((await h.login('totp-user', 'totp-password', codeAt(secret, new Date('2027-04-03T10:06:00Z')))).body.data?.message).toBe(LOGIN_MESSAGES.codeInvalid);
    expect((await h.login('totp-user', 'totp-password', codeAt(secret, new Date('2027-04-03T10:05:30Z')))).body.success).toBe(true);
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

  it('logout with only the access token ends that sign-in, and its access tokens with it', async () => {
    const { body } = await h.login('admin', ADMIN_PASSWORD);
    const other = (await h.login('admin', ADMIN_PASSWORD)).body;
    const out = await h.request('POST', '/api/jwt/logout', { token: body.access, body: {} });
    expect(out.status).toBe(200);
    expect(await json(out)).toEqual({ success: true });
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: body.refresh } })).status).toBe(401);
    expect((await h.request('GET', '/api/users/me', { token: body.access })).status).toBe(401);
    // Only that sign-in: the same user's other one goes on.
    expect((await h.request('GET', '/api/users/me', { token: other.access })).status).toBe(200);
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: other.refresh } })).status).toBe(200);
  });

  it('logout with the refresh token also ends the access tokens of that sign-in, and refreshed ones', async () => {
    const { body } = await h.login('admin', ADMIN_PASSWORD);
    const renewed = await json(await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: body.refresh } }));
    expect((await h.request('GET', '/api/users/me', { token: renewed.access })).status).toBe(200);
    expect((await h.request('POST', '/api/jwt/logout', { body: { refresh_token: renewed.refresh } })).status).toBe(200);
    expect((await h.request('GET', '/api/users/me', { token: body.access })).status).toBe(401);
    expect((await h.request('GET', '/api/users/me', { token: renewed.access })).status).toBe(401);
  });

  it('logout naming no sign-in says what it needs and reports no success', async () => {
    for (const body of [{}, { refresh_token: null }, { refresh_token: '' }]) {
      const res = await h.request('POST', '/api/jwt/logout', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await json(res)).toEqual({ success: false, data: { message: LOGOUT_MESSAGES.needed } });
    }
    const unknown = await h.request('POST', '/api/jwt/logout', { body: { refresh_token: 'made-up' } });
    expect(unknown.status).toBe(401);
    expect((await json(unknown)).success).toBe(false);
    const forged = await h.request('POST', '/api/jwt/logout', { token: 'not-a-token', body: {} });
    expect(forged.status).toBe(401);
    expect((await json(forged)).success).toBe(false);
  });

  it('refuses an expired refresh token and an unknown one', async () => {
    h.clock.set('2027-05-01T08:00:00Z');
    const { body } = await h.login('admin', ADMIN_PASSWORD);
    h.clock.advance(30 * MINUTE);
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: body.refresh } })).status).toBe(401);
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: 'made-up' } })).status).toBe(401);
    expect((await h.request('POST', '/api/jwt/refresh', { body: {} })).status).toBe(422);
  });

  it('ends a session idle for 30 minutes', async () => {
    h.clock.set('2027-05-02T08:00:00Z');
    const first = (await h.login('admin', ADMIN_PASSWORD)).body.refresh!;
    const [row] = await h.db.select().from(refreshTokens).orderBy(desc(refreshTokens.id)).limit(1);
    expect(row).toMatchObject({ created: new Date('2027-05-02T08:00:00Z'), expiresAt: new Date('2027-05-02T08:30:00Z') });
    // Used within 30 minutes: renewed for another 30.
    h.clock.set('2027-05-02T08:29:59Z');
    const renewed = await json(await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: first } }));
    expect(renewed.success).toBe(true);
    h.clock.set('2027-05-02T08:59:58Z');
    const again = await json(await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: renewed.refresh } }));
    expect(again.success).toBe(true);
    // Then left alone for 30 minutes.
    h.clock.set('2027-05-02T09:29:58Z');
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: again.refresh } })).status).toBe(401);
  });

  it('ends any session 12 hours after sign-in, however busy', async () => {
    h.clock.set('2027-05-03T08:00:00Z');
    let refresh = (await h.login('admin', ADMIN_PASSWORD)).body.refresh!;
    // A refresh every 25 minutes: the last one before 20:00 lands at 19:40.
    for (let i = 1; i <= 28; i++) {
      h.clock.advance(25 * MINUTE);
      const rotated = await json(await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: refresh } }));
      expect(rotated.success, `refresh ${i}`).toBe(true);
      refresh = rotated.refresh;
    }
    // Issued at 19:40, it would idle out at 20:10; the sign-in's 12 hours end first.
    const [last] = await h.db.select().from(refreshTokens).orderBy(desc(refreshTokens.id)).limit(1);
    expect(last!.expiresAt).toEqual(new Date('2027-05-03T20:00:00Z'));
    h.clock.set('2027-05-03T20:00:00Z');
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: refresh } })).status).toBe(401);
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
    h.clock.set('2027-06-01T12:00:00Z');
    const now = Math.floor(h.clock().getTime() / 1000);
    const expired = await sign({ sub: '1', typ: 'access', exp: now - 10 }, h.jwtSecret, 'HS256');
    const otherKey = await sign({ sub: '1', typ: 'access', exp: now + 600 }, 'another-secret-of-enough-length!!', 'HS256');
    const notAccess = await sign({ sub: '1', typ: 'refresh', exp: now + 600 }, h.jwtSecret, 'HS256');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: '1', typ: 'access', exp: now + 600 })).toString('base64url');
    const none = `${header}.${payload}.`;
    // The same claims, signed with our key, pass: what fails above is what each one lacks.
    const good = await sign({ sub: '1', typ: 'access', exp: now + 600 }, h.jwtSecret, 'HS256');
    expect((await h.request('GET', '/api/users/me', { token: good })).status).toBe(200);
    for (const [name, token] of Object.entries({ missing: undefined, garbage: 'garbage', expired, otherKey, notAccess, none })) {
      const res = await h.request('GET', '/api/users/me', { token });
      expect(res.status, name).toBe(401);
      const doc = await json(res);
      expect(doc.errors[0].status).toBe('401');
    }
  });

  it('accepts an access token until its 15 minutes are over', async () => {
    h.clock.set('2027-06-02T12:00:00Z');
    const token = await h.token();
    h.clock.set('2027-06-02T12:14:59Z');
    expect((await h.request('GET', '/api/users/me', { token })).status).toBe(200);
    h.clock.set('2027-06-02T12:15:00Z');
    expect((await h.request('GET', '/api/users/me', { token })).status).toBe(401);
  });
});

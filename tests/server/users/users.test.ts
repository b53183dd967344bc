import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { authenticator } from 'otplib';
import { refreshTokens, roles, sponsors, userRoles, users } from '../../../server/db/schema';
import { PASSWORD_CHANGE_REQUIRED } from '../../../server/auth/guards';
import { LOGIN_MESSAGES } from '../../../server/auth/routes';
import { USER_MESSAGES } from '../../../server/users/routes';
import { ADMIN_PASSWORD, createHarness, json, type Harness } from '../harness';
import { expectParametersRefused } from '../listQueries';

let h: Harness;
let admin: string;
let roleIds: Record<string, string>;
let sponsorA: string;
let sponsorB: string;

const userBody = (attributes: Record<string, unknown>, rel: { roles?: string[]; sponsors?: string[] } = {}, id?: string) => ({
  data: {
    type: 'users',
    ...(id ? { id } : {}),
    attributes,
    relationships: {
      ...(rel.roles ? { roles: { data: rel.roles.map((r) => ({ type: 'roles', id: roleIds[r] ?? r })) } } : {}),
      ...(rel.sponsors ? { sponsors: { data: rel.sponsors.map((s) => ({ type: 'sponsors', id: s })) } } : {}),
    },
  },
});
const userCount = async () => (await h.db.select({ n: count() }).from(users))[0]?.n;
const row = async (username: string) => (await h.db.select().from(users).where(eq(users.username, username)))[0]!;

async function createViaApi(username: string, roleNames: string[], sponsorIds: string[] = [], extra: Record<string, unknown> = {}) {
  const res = await h.request('POST', '/api/users', {
    token: admin,
    body: userBody({ username, password: 'initial-pass-1', ...extra }, { roles: roleNames, sponsors: sponsorIds }),
  });
  return { res, doc: await json(res) };
}

/** Signs a user in whose password an Admin set and changes it, answering a working access token. */
async function signInChanged(username: string, initial = 'initial-pass-1', chosen = 'my-own-password') {
  const first = await h.login(username, initial);
  const res = await h.request('POST', '/api/users/me/password', {
    token: first.body.access,
    body: { data: { type: 'users', attributes: { currentPassword: initial, password: chosen } } },
  });
  const doc = await json(res);
  return doc.meta as { access: string; refresh: string };
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  roleIds = Object.fromEntries((await h.db.select().from(roles)).map((r) => [r.name, String(r.id)]));
  const made = await h.db
    .insert(sponsors)
    .values([
      { name: 'Alpha Pharma', identification: 'ALPHA' },
      { name: 'Beta Bio', identification: 'BETA' },
    ])
    .returning({ id: sponsors.id });
  sponsorA = String(made[0]!.id);
  sponsorB = String(made[1]!.id);
});
afterAll(async () => {
  await h.close();
});

describe('role rules', () => {
  it('gives a User 403 on users, languages, generic messages and contact fields', async () => {
    await h.createUser({ username: 'plain-user', password: 'plain-password' });
    const token = await h.token('plain-user', 'plain-password');
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/users'],
      ['GET', '/api/users/1'],
      ['POST', '/api/users', userBody({ username: 'sneaky', password: 'sneaky-pass' }, { roles: ['Admin'] })],
      ['PATCH', '/api/users/1', userBody({ isActive: false }, {}, '1')],
      ['POST', '/api/users/validate-email', { data: { email: 'a@b.co' } }],
      ['DELETE', '/api/users/1/totp'],
      ['GET', '/api/languages'],
      ['POST', '/api/languages', { data: { type: 'languages', attributes: { name: 'F', description: 'French', isoCode: 'fr' } } }],
      ['GET', '/api/generic-messages'],
      ['GET', '/api/generic-messages/1'],
      ['GET', '/api/contact-fields'],
      ['DELETE', '/api/contact-fields/1'],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.request(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await json(res)).errors[0].title).toBe('Forbidden');
    }
    expect(await userCount()).toBe(2);
    expect((await row('admin')).isActive).toBe(true);
    // Their own profile stays open to them.
    expect((await h.request('GET', '/api/users/me', { token })).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expect((await h.request('GET', '/api/users')).status).toBe(401);
  });
});

describe('creating users', () => {
  it('creates a user with roles and sponsors (201) who must change the initial password', async () => {
    const { res, doc } = await createViaApi('newbie', ['User'], [sponsorA], { email: 'Newbie@Example.com', locale: 'es-MX' });
    expect(res.status).toBe(201);
    expect(doc.data.attributes).toMatchObject({
      username: 'newbie',
      email: 'Newbie@Example.com',
      isActive: true,
      mustChangePassword: true,
      secretVerified: false,
      locale: 'es_MX',
    });
    expect(doc.data.attributes).not.toHaveProperty('password');
    expect(doc.data.attributes).not.toHaveProperty('passwordHash');
    expect(doc.data.relationships.roles.data).toEqual([{ type: 'roles', id: roleIds.User }]);
    expect(doc.data.relationships.sponsors.data).toEqual([{ type: 'sponsors', id: sponsorA }]);
    expect(doc.included).toEqual(
      expect.arrayContaining([
        { type: 'roles', id: roleIds.User, attributes: { name: 'User' } },
        { type: 'sponsors', id: sponsorA, attributes: { name: 'Alpha Pharma' } },
      ]),
    );

    const read = await json(await h.request('GET', `/api/users/${doc.data.id}`, { token: admin }));
    expect(read.included.map((r: { type: string }) => r.type).sort()).toEqual(['roles', 'sponsors']);
  });

  it('refuses a duplicate e-mail (any case) and a duplicate username with 409, writing nothing', async () => {
    const before = await userCount();
    const email = await createViaApi('another', ['User'], [], { email: 'NEWBIE@example.COM' });
    expect(email.res.status).toBe(409);
    expect(email.doc.errors[0]).toMatchObject({ detail: USER_MESSAGES.emailTaken, source: { pointer: '/data/attributes/email' } });
    const name = await createViaApi('NewBie', ['User']);
    expect(name.res.status).toBe(409);
    expect(name.doc.errors[0].source.pointer).toBe('/data/attributes/username');
    expect(await userCount()).toBe(before);
  });

  it('answers bad bodies with 422 and pointers, writing nothing', async () => {
    const before = await userCount();
    const cases: [unknown, string, string?][] = [
      [userBody({ username: 'ok-name', password: 'short' }, { roles: ['User'] }), '/data/attributes/password', 'Minimum 8 characters.'],
      [
        userBody({ username: 'ok-name', password: 'long-enough', email: 'not-mail' }, { roles: ['User'] }),
        '/data/attributes/email',
        'Must be a valid email format.',
      ],
      [userBody({ username: 'a b', password: 'long-enough' }, { roles: ['User'] }), '/data/attributes/username'],
      [userBody({ username: 'ok-name', password: 'long-enough', isAdmin: true }, { roles: ['User'] }), '/data/attributes/isAdmin'],
      [userBody({ username: 'ok-name', password: 'long-enough' }), '/data/relationships/roles', USER_MESSAGES.rolesRequired],
      [userBody({ username: 'ok-name', password: 'long-enough' }, { roles: [] }), '/data/relationships/roles', USER_MESSAGES.rolesRequired],
      [userBody({ username: 'ok-name', password: 'long-enough' }, { roles: ['99999'] }), '/data/relationships/roles', USER_MESSAGES.unknownRole],
      [
        userBody({ username: 'ok-name', password: 'long-enough' }, { roles: ['User'], sponsors: ['99999'] }),
        '/data/relationships/sponsors',
        USER_MESSAGES.unknownSponsor,
      ],
      [userBody({ username: 'ok-name', password: 'long-enough' }, { roles: ['User'], sponsors: ['abc'] }), '/data/relationships/sponsors/data/0'],
      [userBody({ username: 'ok-name', password: 'long-enough', locale: 'not a code' }, { roles: ['User'] }), '/data/attributes/locale'],
    ];
    for (const [body, pointer, detail] of cases) {
      const res = await h.request('POST', '/api/users', { token: admin, body });
      expect(res.status, pointer).toBe(422);
      const doc = await json(res);
      expect(doc.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
      if (detail) expect(doc.errors[0].detail).toBe(detail);
    }
    for (const body of ['{', '[]', '{"data":null}']) {
      const res = await h.request('POST', '/api/users', { token: admin, body });
      expect([400, 422]).toContain(res.status);
    }
    expect(await userCount()).toBe(before);
  });

  it('lets only a Super User grant the Super User role', async () => {
    await createViaApi('plain-admin', ['Admin']);
    const token = (await signInChanged('plain-admin')).access;
    const res = await h.request('POST', '/api/users', {
      token,
      body: userBody({ username: 'wannabe', password: 'long-enough' }, { roles: ['Super User'] }),
    });
    expect(res.status).toBe(403);
    expect((await json(res)).errors[0].detail).toBe(USER_MESSAGES.superUserOnly);
    const ok = await h.request('POST', '/api/users', {
      token,
      body: userBody({ username: 'helper', password: 'long-enough' }, { roles: ['User'], sponsors: [sponsorB] }),
    });
    expect(ok.status).toBe(201);
  });
});

describe('validate-email', () => {
  const check = async (email: unknown, id?: string) => {
    const res = await h.request('POST', '/api/users/validate-email', { token: admin, body: { data: { email, id } } });
    return { status: res.status, doc: await json(res) };
  };

  it('answers data.is_valid: unique and well formed', async () => {
    expect((await check('fresh@example.com')).doc).toEqual({ data: { is_valid: true } });
    expect((await check('newbie@EXAMPLE.com')).doc).toEqual({ data: { is_valid: false, message: USER_MESSAGES.emailTaken } });
    expect((await check('no-at-sign')).doc.data.is_valid).toBe(false);
    const newbie = await row('newbie');
    expect((await check('newbie@example.com', String(newbie.id))).doc.data.is_valid).toBe(true);
  });

  it('answers a malformed body with 422 and a pointer', async () => {
    const { status, doc } = await check(42);
    expect(status).toBe(422);
    expect(doc.errors[0].source.pointer).toBe('/data/email');
  });
});

describe('first sign-in', () => {
  it('reports mustChangePassword, refuses other calls with 403 until the password is changed', async () => {
    await createViaApi('first-timer', ['User'], [sponsorA]);
    const login = await h.login('first-timer', 'initial-pass-1');
    expect(login.status).toBe(200);
    expect((login.body.data?.user as { mustChangePassword?: boolean }).mustChangePassword).toBe(true);
    const token = login.body.access!;

    const blocked = await h.request('GET', '/api/sponsors', { token });
    expect(blocked.status).toBe(403);
    const error = (await json(blocked)).errors[0];
    expect(error).toMatchObject({ detail: PASSWORD_CHANGE_REQUIRED, meta: { code: 'password_change_required' } });
    expect((await h.request('POST', '/api/users/me/totp', { token })).status).toBe(403);
    expect((await h.request('GET', '/api/users/me', { token })).status).toBe(200);

    const change = (attributes: Record<string, unknown>) =>
      h.request('POST', '/api/users/me/password', { token, body: { data: { type: 'users', attributes } } });
    const wrong = await change({ currentPassword: 'not-it', password: 'brand-new-pass' });
    expect(wrong.status).toBe(422);
    expect((await json(wrong)).errors[0]).toMatchObject({
      detail: USER_MESSAGES.currentPasswordWrong,
      source: { pointer: '/data/attributes/currentPassword' },
    });
    const short = await change({ currentPassword: 'initial-pass-1', password: 'short' });
    expect(short.status).toBe(422);
    expect((await json(short)).errors[0]).toMatchObject({ detail: 'Minimum 8 characters.', source: { pointer: '/data/attributes/password' } });
    const same = await change({ currentPassword: 'initial-pass-1', password: 'initial-pass-1' });
    expect((await json(same)).errors[0].detail).toBe(USER_MESSAGES.samePassword);
    expect((await row('first-timer')).mustChangePassword).toBe(true);

    const done = await change({ currentPassword: 'initial-pass-1', password: 'brand-new-pass' });
    expect(done.status).toBe(200);
    const doc = await json(done);
    expect(doc.data.attributes.mustChangePassword).toBe(false);
    expect(doc.meta.access).toBeTruthy();
    expect(doc.meta.refresh).toBeTruthy();

    // The sign-in's old refresh token ended with the change; the new tokens work.
    const oldRefresh = await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: login.body.refresh } });
    expect(oldRefresh.status).toBe(401);
    expect((await h.request('GET', '/api/sponsors', { token: doc.meta.access })).status).toBe(200);
    expect((await h.login('first-timer', 'initial-pass-1')).status).toBe(401);
    expect((await h.login('first-timer', 'brand-new-pass')).body.success).toBe(true);
  });

  it('makes an Admin-reset password an initial one again and ends the sessions', async () => {
    const { refresh } = await signInChanged('helper', 'long-enough');
    const helper = await row('helper');
    const res = await h.request('PATCH', `/api/users/${helper.id}`, {
      token: admin,
      body: userBody({ password: 'reset-by-admin' }, {}, String(helper.id)),
    });
    expect(res.status).toBe(200);
    expect((await json(res)).data.attributes.mustChangePassword).toBe(true);
    expect((await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: refresh } })).status).toBe(401);
    expect((await h.login('helper', 'reset-by-admin')).body.success).toBe(true);
  });
});

describe('updating users', () => {
  it('changes e-mail, locale, active flag, roles and sponsors', async () => {
    const newbie = await row('newbie');
    const res = await h.request('PATCH', `/api/users/${newbie.id}`, {
      token: admin,
      body: userBody({ email: 'renamed@example.com', locale: 'en' }, { roles: ['User', 'Admin'], sponsors: [sponsorA, sponsorB] }, String(newbie.id)),
    });
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc.data.attributes).toMatchObject({ email: 'renamed@example.com', locale: 'en', username: 'newbie' });
    expect(doc.data.relationships.roles.data.map((r: { id: string }) => r.id).sort()).toEqual([roleIds.Admin, roleIds.User].sort());
    expect(doc.data.relationships.sponsors.data).toHaveLength(2);

    const cleared = await json(
      await h.request('PATCH', `/api/users/${newbie.id}`, { token: admin, body: userBody({ email: '' }, { sponsors: [] }, String(newbie.id)) }),
    );
    expect(cleared.data.attributes.email).toBeNull();
    expect(cleared.data.relationships.sponsors.data).toEqual([]);
    expect(cleared.data.relationships.roles.data).toHaveLength(2);
  });

  it('refuses a username change, an e-mail another user has, and unknown ids', async () => {
    const newbie = await row('newbie');
    const rename = await h.request('PATCH', `/api/users/${newbie.id}`, { token: admin, body: userBody({ username: 'x' }, {}, String(newbie.id)) });
    expect(rename.status).toBe(422);
    await h.db.update(users).set({ email: 'taken@example.com' }).where(eq(users.username, 'helper'));
    const taken = await h.request('PATCH', `/api/users/${newbie.id}`, { token: admin, body: userBody({ email: 'Taken@example.com' }, {}, String(newbie.id)) });
    expect(taken.status).toBe(409);
    for (const id of ['999999', 'abc']) {
      expect((await h.request('PATCH', `/api/users/${id}`, { token: admin, body: userBody({ isActive: true }) })).status).toBe(404);
      expect((await h.request('GET', `/api/users/${id}`, { token: admin })).status).toBe(404);
    }
  });

  it('deactivating a user revokes their refresh tokens: they stay dead after reactivation', async () => {
    await h.createUser({ username: 'leaver', password: 'leaver-password' });
    const login = await h.login('leaver', 'leaver-password');
    const leaver = await row('leaver');
    const off = await h.request('PATCH', `/api/users/${leaver.id}`, { token: admin, body: userBody({ isActive: false }, {}, String(leaver.id)) });
    expect(off.status).toBe(200);
    const tokens = await h.db.select().from(refreshTokens).where(eq(refreshTokens.userId, leaver.id));
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    expect((await h.request('GET', '/api/sponsors', { token: login.body.access })).status).toBe(401);
    await h.request('PATCH', `/api/users/${leaver.id}`, { token: admin, body: userBody({ isActive: true }, {}, String(leaver.id)) });
    const refresh = await h.request('POST', '/api/jwt/refresh', { body: { refresh_token: login.body.refresh } });
    expect(refresh.status).toBe(401);
    expect((await json(refresh)).data.message).toBe(LOGIN_MESSAGES.sessionEnded);
  });

  it('refuses to let anyone deactivate themselves', async () => {
    const me = await row('admin');
    const res = await h.request('PATCH', `/api/users/${me.id}`, { token: admin, body: userBody({ isActive: false }, {}, String(me.id)) });
    expect(res.status).toBe(422);
    expect((await json(res)).errors[0]).toMatchObject({ detail: USER_MESSAGES.deactivateSelf, source: { pointer: '/data/attributes/isActive' } });
    expect((await row('admin')).isActive).toBe(true);
  });

  it('never removes the last active Super User, by role change or deactivation', async () => {
    const me = await row('admin');
    const demote = await h.request('PATCH', `/api/users/${me.id}`, { token: admin, body: userBody({}, { roles: ['Admin'] }, String(me.id)) });
    expect(demote.status).toBe(409);
    expect((await json(demote)).errors[0].detail).toBe(USER_MESSAGES.lastSuperUser);
    // Rolled back whole: the admin still holds both roles.
    const held = await h.db.select().from(userRoles).where(eq(userRoles.userId, me.id));
    expect(held.map((r) => String(r.roleId)).sort()).toEqual([roleIds.Admin, roleIds['Super User']].sort());

    // With a second Super User, the first may step down; that one then cannot be deactivated.
    const { doc } = await createViaApi('deputy', ['Super User']);
    const stepDown = await h.request('PATCH', `/api/users/${me.id}`, { token: admin, body: userBody({}, { roles: ['Admin'] }, String(me.id)) });
    expect(stepDown.status).toBe(200);
    const deputy = await h.request('PATCH', `/api/users/${doc.data.id}`, {
      token: admin,
      body: userBody({ isActive: false }, {}, doc.data.id),
    });
    expect(deputy.status).toBe(409);
    expect((await json(deputy)).errors[0].detail).toBe(USER_MESSAGES.lastSuperUser);
    expect(
      (
        await h.db
          .select()
          .from(users)
          .where(eq(users.id, Number(doc.data.id)))
      )[0]?.isActive,
    ).toBe(true);
    // Restore: the deputy (a Super User) makes admin a Super User again.
    const deputyToken = (await signInChanged('deputy')).access;
    const restore = await h.request('PATCH', `/api/users/${me.id}`, {
      token: deputyToken,
      body: userBody({}, { roles: ['Admin', 'Super User'] }, String(me.id)),
    });
    expect(restore.status).toBe(200);
  });
});

describe('listing users', () => {
  it('pages, sorts, searches and includes roles', async () => {
    const res = await h.request('GET', '/api/users?include=roles&limit=10&sort=-username', { token: admin });
    expect(res.status).toBe(200);
    const doc = await json(res);
    const names = doc.data.map((u: { attributes: { username: string } }) => u.attributes.username);
    expect(names).toEqual([...names].sort().reverse());
    expect(doc.meta).toMatchObject({ page: 1, limit: 10 });
    expect(doc.meta.total).toBe(await userCount());
    const adminRow = doc.data.find((u: { attributes: { username: string } }) => u.attributes.username === 'admin');
    expect(adminRow.relationships.roles.data).toHaveLength(2);
    expect(doc.included.every((r: { type: string }) => r.type === 'roles')).toBe(true);

    const search = await json(await h.request('GET', '/api/users?searchQuery=NEWB', { token: admin }));
    expect(search.data.map((u: { attributes: { username: string } }) => u.attributes.username)).toEqual(['newbie']);
    expect(search.data[0].relationships).toBeUndefined();
    const inactive = await json(await h.request('GET', '/api/users?isActive=false&fields=username', { token: admin }));
    expect(inactive.data.every((u: { attributes: Record<string, unknown> }) => Object.keys(u.attributes).join() === 'username')).toBe(true);
  });

  it('answers 400 naming the bad parameter', async () => {
    await expectParametersRefused(h, '/api/users', admin, [
      ['sort=password', 'sort'],
      ['include=secrets', 'include'],
      ['limit=7', 'limit'],
      ['isActive=maybe', 'isActive'],
      ['role=Admin', 'role'],
    ]);
  });
});

describe('two-factor enrolment', () => {
  let token: string;
  let secret: string;
  // Codes depend on the time: the server's clock stands at one instant, moved on where it matters.
  const codeNow = (s: string) => authenticator.clone({ epoch: h.clock().getTime() }).generate(s);

  beforeAll(async () => {
    h.clock.set('2027-08-01T10:00:05Z');
    await h.createUser({ username: 'careful', password: 'careful-password' });
    token = await h.token('careful', 'careful-password');
  });
  afterAll(() => h.clock.release());

  it('issues a secret and an otpauth URI, unverified', async () => {
    const res = await h.request('POST', '/api/users/me/totp', { token });
    expect(res.status).toBe(201);
    const doc = await json(res);
    secret = doc.data.attributes.secret;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(doc.data.attributes.otpauthUri).toBe(
      `otpauth://totp/Trial%20Recruit:careful?secret=${secret}&period=30&digits=6&algorithm=SHA1&issuer=Trial%20Recruit`,
    );
    const stored = await row('careful');
    expect(stored).toMatchObject({ totpSecret: secret, secretVerified: false });
    // Not yet verified: sign-in does not ask for a code.
    expect((await h.login('careful', 'careful-password')).body.success).toBe(true);
  });

  it('does not verify with a wrong or malformed code', async () => {
    // None of the codes of the three steps the server accepts now.
    const accepted = [-30_000, 0, 30_000].map((ms) => authenticator.clone({ epoch: h.clock().getTime() + ms }).generate(secret));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !accepted.includes(code))!;
    const res = await h.request('POST', '/api/users/me/totp/verify', { token, body: { data: { type: 'totp-enrolments', attributes: { code: wrong } } } });
    expect(res.status).toBe(422);
    expect((await json(res)).errors[0]).toMatchObject({ detail: USER_MESSAGES.totpCodeInvalid, source: { pointer: '/data/attributes/code' } });
    const malformed = await h.request('POST', '/api/users/me/totp/verify', {
      token,
      body: { data: { type: 'totp-enrolments', attributes: { code: '12ab' } } },
    });
    expect(malformed.status).toBe(422);
    expect((await row('careful')).secretVerified).toBe(false);
  });

  it('verifies with a valid code; sign-in then needs a code', async () => {
    const res = await h.request('POST', '/api/users/me/totp/verify', {
      token,
      body: { data: { type: 'totp-enrolments', attributes: { code: codeNow(secret) } } },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).data.attributes.secretVerified).toBe(true);
    expect((await row('careful')).secretVerified).toBe(true);

    const noCode = await h.login('careful', 'careful-password');
    expect(noCode.body).toMatchObject({ success: false, data: { secret_verified: true } });
    // The enrolment code's step is used up; the next step's code signs in.
    h.clock.advance(30_000);
    const withCode = await h.login('careful', 'careful-password', codeNow(secret));
    expect(withCode.body.success).toBe(true);

    // Enrolling again over a verified secret is refused: the Admin resets it first.
    expect((await h.request('POST', '/api/users/me/totp', { token })).status).toBe(409);
  });

  it("lets an Admin reset another user's two-factor", async () => {
    const careful = await row('careful');
    // Signed in at this describe's instant: the file's first token was dated by the wall clock.
    const admin = await h.token();
    const plain = await h.token('plain-user', 'plain-password');
    expect((await h.request('DELETE', `/api/users/${careful.id}/totp`, { token: plain })).status).toBe(403);
    expect((await h.request('DELETE', '/api/users/999999/totp', { token: admin })).status).toBe(404);
    const res = await h.request('DELETE', `/api/users/${careful.id}/totp`, { token: admin });
    expect(res.status).toBe(204);
    expect(await row('careful')).toMatchObject({ totpSecret: null, secretVerified: false, totpLastStep: null });
    expect((await h.login('careful', 'careful-password')).body.success).toBe(true);
    expect((await h.request('POST', '/api/users/me/totp', { token })).status).toBe(201);
  });
});

describe('admin password', () => {
  it('is untouched by all of the above', async () => {
    expect((await h.login('admin', ADMIN_PASSWORD)).body.success).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, sentAttributes, type Handler, type Recorded, refusal } from './helpers';
import { makeSponsor } from './fixtures';

const admin = makeUser('Admin', { id: '1', username: 'boss' });

const LANGUAGES = [
  { id: 1, name: 'English', description: 'English', isoCode: 'en', isActive: true, isDefault: true, created: '', modified: '' },
  { id: 2, name: 'Español', description: 'Spanish', isoCode: 'es', isActive: true, isDefault: false, created: '', modified: '' },
  { id: 3, name: 'Español (México)', description: 'Spanish (Mexico)', isoCode: 'es_MX', isActive: true, isDefault: false, created: '', modified: '' },
];
const ROLES = [
  { id: 1, name: 'Admin' },
  { id: 2, name: 'Super User' },
  { id: 3, name: 'User' },
];

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
/** Types each value into the field of its label, in order. */
const fill = (values: Record<string, string>) => {
  for (const [label, value] of Object.entries(values)) type(label, value);
};
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const writes = (requests: Recorded[]) => requests.filter((r) => ['POST', 'PATCH', 'DELETE'].includes(r.method) && r.path !== 'users/validate-email');
/** Saves the form and waits for the screen at `path` to open: answers the `method` write the save sent. */
async function saveAndOpen({ server, location }: ReturnType<typeof renderAdmin>, path: string, method: 'POST' | 'PATCH') {
  save();
  await waitFor(() => expect(location()).toBe(path));
  return writes(server.requests).find((r) => r.method === method);
}

/** A user's attributes as makeUser has them (every document here names its own username). */
const { id: _id, roles: _roles, sponsors: _sponsors, ...userDefaults } = makeUser(null);

function userDocument(id: number, attributes: Record<string, unknown>, roleIds: number[], sponsorIds: number[] = []) {
  return {
    data: {
      type: 'users',
      id: String(id),
      attributes: { ...userDefaults, email: null, ...attributes },
      relationships: {
        roles: { data: roleIds.map((r) => ({ type: 'roles', id: String(r) })) },
        sponsors: { data: sponsorIds.map((s) => ({ type: 'sponsors', id: String(s) })) },
      },
    },
    included: [
      ...ROLES.filter((r) => roleIds.includes(r.id)).map((r) => ({ type: 'roles', id: String(r.id), attributes: { name: r.name } })),
      ...sponsorIds.map((s) => ({ type: 'sponsors', id: String(s), attributes: { name: `Sponsor ${s}` } })),
    ],
  };
}

function configServer(extra: Handler = () => undefined): Handler {
  return async (request, url) => {
    const answer = await extra(request, url);
    if (answer) return answer;
    if (url.pathname === '/api/languages') return json(listDocument('languages', LANGUAGES));
    if (url.pathname === '/api/roles') return json(listDocument('roles', ROLES));
    if (url.pathname === '/api/sponsors')
      return json(listDocument('sponsors', [makeSponsor(7, { name: 'Acme Pharma' }), makeSponsor(8, { name: 'Beta Bio' })]));
    if (url.pathname === '/api/users/validate-email') {
      const { data } = (await request.json()) as { data: { email: string } };
      return json({ data: data.email === 'taken@example.com' ? { is_valid: false, message: 'This e-mail address is already in use.' } : { is_valid: true } });
    }
    return undefined;
  };
}

describe('users', () => {
  it('lists users with their roles and two-factor state', async () => {
    const handler = configServer((_r, url) =>
      url.pathname === '/api/users'
        ? json({
            data: [
              {
                type: 'users',
                id: '4',
                attributes: { username: 'jane', email: 'jane@example.com', isActive: true, secretVerified: true },
                relationships: { roles: { data: [{ type: 'roles', id: '3' }] } },
              },
            ],
            included: [{ type: 'roles', id: '3', attributes: { name: 'User' } }],
            meta: { total: 1 },
          })
        : undefined,
    );
    const { server } = renderAdmin({ path: '/users', user: admin, handler });
    const row = (await screen.findByRole('link', { name: 'jane' })).closest('tr')!;
    expect(within(row).getByText('User')).toBeTruthy();
    expect(within(row).getByText('On')).toBeTruthy();
    const query = server.requests.find((r) => r.path === 'users')!.query;
    expect(query.get('include')).toBe('roles');
    expect(query.get('sort')).toBe('username');
  });

  it('requires username, initial password and a role, sending nothing', async () => {
    const { server } = renderAdmin({ path: '/users/add', user: admin, handler: configServer() });
    await screen.findByRole('checkbox', { name: 'User' });
    save();
    expect(await screen.findByText('Choose at least one role.')).toBeTruthy();
    expect(screen.getByText('Use 3 to 64 letters, digits or . _ @ -')).toBeTruthy();
    expect(screen.getByText('Minimum 8 characters.')).toBeTruthy();
    expect(writes(server.requests)).toHaveLength(0);
  });

  it('checks the e-mail with the server when the field is left', async () => {
    const { server } = renderAdmin({ path: '/users/add', user: admin, handler: configServer() });
    await screen.findByRole('checkbox', { name: 'User' });
    type('Email', 'taken@example.com');
    fireEvent.blur(screen.getByLabelText('Email'));
    expect(await screen.findByText('This e-mail address is already in use.')).toBeTruthy();
    expect(server.requests.find((r) => r.path === 'users/validate-email')?.body).toEqual({ data: { email: 'taken@example.com' } });
    type('Email', 'free@example.com');
    await waitFor(() => expect(screen.queryByText('This e-mail address is already in use.')).toBeNull());
  });

  it('creates a user with roles, sponsors and language, then lists users', async () => {
    const handler = configServer(async (request, url) => {
      if (url.pathname === '/api/users' && request.method === 'POST') return json(userDocument(9, { username: 'newbie' }, [3], [7]), 201);
      if (url.pathname === '/api/users' && request.method === 'GET') return json({ data: [], meta: { total: 0 } });
      return undefined;
    });
    const rendered = renderAdmin({ path: '/users/add', user: admin, handler });
    await screen.findByRole('checkbox', { name: 'Acme Pharma' });
    await screen.findByRole('option', { name: 'Spanish (Mexico) (es-MX)' });
    fill({ Username: 'newbie', Email: 'newbie@example.com', 'Initial Password': 'initial-pass-1' });
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'es-MX' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'User' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Acme Pharma' }));
    const post = await saveAndOpen(rendered, '/users', 'POST');
    expect(post?.path).toBe('users');
    expect(post?.body).toEqual({
      data: {
        type: 'users',
        attributes: { username: 'newbie', email: 'newbie@example.com', password: 'initial-pass-1', locale: 'es_MX', isActive: true },
        relationships: { roles: { data: [{ type: 'roles', id: '3' }] }, sponsors: { data: [{ type: 'sponsors', id: '7' }] } },
      },
    });
  });

  it("edits a user and resets their two-factor after confirming; can't deactivate oneself", async () => {
    let secretVerified = true;
    const handler = configServer(async (request, url) => {
      if (url.pathname === '/api/users/4' && request.method === 'GET')
        return json(userDocument(4, { username: 'jane', email: 'jane@example.com', secretVerified }, [3], [7]));
      if (url.pathname === '/api/users/4/totp' && request.method === 'DELETE') {
        secretVerified = false;
        return new Response(null, { status: 204 });
      }
      if (url.pathname === '/api/users/4' && request.method === 'PATCH') return json(userDocument(4, { username: 'jane' }, [1, 3]));
      if (url.pathname === '/api/users/1' && request.method === 'GET') return json(userDocument(1, { username: 'boss' }, [1]));
      if (url.pathname === '/api/users') return json({ data: [], meta: { total: 0 } });
      return undefined;
    });
    const view = renderAdmin({ path: '/users/edit/4', user: admin, handler });
    await screen.findByDisplayValue('jane@example.com');
    expect((screen.getByLabelText('Username') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Reset Two-Factor' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Reset Two-Factor' })).toBeNull());
    expect(view.server.requests.some((r) => r.method === 'DELETE' && r.path === 'users/4/totp')).toBe(true);

    fireEvent.click(await screen.findByRole('checkbox', { name: 'Admin' }));
    save();
    await waitFor(() => expect(view.location()).toBe('/users'));
    const patch = view.server.requests.find((r) => r.method === 'PATCH')!;
    const body = patch.body as { data: { attributes: Record<string, unknown>; relationships: { roles: { data: { id: string }[] } } } };
    expect(body.data.attributes).toEqual({ email: 'jane@example.com', locale: 'en', isActive: true });
    expect(body.data.relationships.roles.data.map((r) => r.id).sort()).toEqual(['1', '3']);
    view.unmount();

    renderAdmin({ path: '/users/edit/1', user: admin, handler });
    const active = await screen.findByRole('checkbox', { name: 'Active' });
    expect((active as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('You cannot deactivate your own account.')).toBeTruthy();
  });
});

describe('first sign-in and profile', () => {
  const forcedUser = makeUser('User', { username: 'newbie', mustChangePassword: true });

  it('sends a user who must change their password to the change screen from anywhere', async () => {
    const { location } = renderAdmin({ path: '/sponsors', user: forcedUser });
    await waitFor(() => expect(location()).toBe('/change-password'));
    expect(await screen.findByText('Your password was set by an Administrator. Choose your own password to continue.')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('changes the password, continues with the new tokens and goes on', async () => {
    const handler: Handler = async (request, url) => {
      if (url.pathname === '/api/users/me/password') {
        const { data } = (await request.json()) as { data: { attributes: { currentPassword: string } } };
        if (data.attributes.currentPassword !== 'initial-pass-1') {
          return refusal(422, 'Invalid Attribute', 'Your current password is not correct.', { pointer: '/data/attributes/currentPassword' });
        }
        return json({ ...userDocument(5, { username: 'newbie', mustChangePassword: false }, [3]), meta: { access: 'access-2', refresh: 'refresh-2' } });
      }
      if (url.pathname === '/api/sponsors') return json({ data: [], meta: { total: 0 } });
      return undefined;
    };
    const { location, tokens, server } = renderAdmin({ path: '/change-password', user: forcedUser, handler });
    await screen.findByLabelText('Current Password');
    fill({ 'Current Password': 'wrong-one', 'New Password': 'my-own-password', 'Repeat New Password': 'my-own-passw0rd' });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('The two new passwords are not the same.')).toBeTruthy();
    expect(server.requests.filter((r) => r.path === 'users/me/password')).toHaveLength(0);

    type('Repeat New Password', 'my-own-password');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Your current password is not correct.')).toBeTruthy();

    type('Current Password', 'initial-pass-1');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(location()).toBe('/sponsors'));
    expect(tokens.current).toEqual({ access: 'access-2', refresh: 'refresh-2' });
    await waitFor(() => expect(server.requests.filter((r) => r.path === 'sponsors')[0]?.authorization).toBe('Bearer access-2'));
  });

  it('offers password and two-factor in the profile menu', async () => {
    renderAdmin({ path: '/403', user: admin });
    fireEvent.click(await screen.findByRole('button', { name: /boss/ }));
    expect(screen.getByRole('menuitem', { name: 'Change Password' }).getAttribute('href')).toBe('/change-password');
    expect(screen.getByRole('menuitem', { name: 'Two-Factor Authentication' }).getAttribute('href')).toBe('/profile/two-factor');
  });

  it('enrols two-factor: QR code and text secret, refused code, then verified', async () => {
    const handler: Handler = async (request, url) => {
      if (url.pathname === '/api/users/me/totp') {
        return json(
          resourceDocument('totp-enrolments', {
            id: 1,
            secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
            otpauthUri: 'otpauth://totp/Trial%20Recruit:boss?secret=JBSWY3DPEHPK3PXPJBSWY3DP',
          }),
          201,
        );
      }
      if (url.pathname === '/api/users/me/totp/verify') {
        const { data } = (await request.json()) as { data: { attributes: { code: string } } };
        if (data.attributes.code !== '123456') {
          return refusal(422, 'Invalid Attribute', 'The code is not valid. Check your authenticator app and try again.', { pointer: '/data/attributes/code' });
        }
        return json(userDocument(1, { username: 'boss', secretVerified: true }, [1]));
      }
      return undefined;
    };
    const { store } = renderAdmin({ path: '/profile/two-factor', user: admin, handler });
    fireEvent.click(await screen.findByRole('button', { name: 'Set Up Two-Factor Sign-In' }));
    const qr = (await screen.findByRole('img', { name: 'QR code for your authenticator app' })) as HTMLImageElement;
    expect(decodeURIComponent(qr.src)).toMatch(/^data:image\/svg\+xml;charset=utf-8,<svg/);
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP');

    type('Authenticator Code', '12');
    fireEvent.click(screen.getByRole('button', { name: 'Verify and Turn On' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    type('Authenticator Code', '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Verify and Turn On' }));
    expect(await screen.findByText('The code is not valid. Check your authenticator app and try again.')).toBeTruthy();
    type('Authenticator Code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify and Turn On' }));
    expect(await screen.findByText('Two-factor sign-in is on. Each sign-in asks for a code from your authenticator app.')).toBeTruthy();
    const { currentUserAtom } = await import('../../admin/state/auth');
    expect(store.get(currentUserAtom)?.secretVerified).toBe(true);
  });
});

describe('system configuration', () => {
  it('edits a generic message beside its translation per active language', async () => {
    const message = {
      id: 3,
      keyName: 'button_next',
      message: 'Next',
      translations: { es: 'Siguiente', fr: 'Suivant' },
      messageType: 'default',
      created: '',
      modified: '',
    };
    const handler = configServer(async (request, url) => {
      if (url.pathname === '/api/generic-messages/3' && request.method === 'GET') return json(resourceDocument('generic-messages', message));
      if (url.pathname === '/api/generic-messages/3' && request.method === 'PATCH') return json(resourceDocument('generic-messages', message));
      if (url.pathname === '/api/generic-messages') return json({ data: [], meta: { total: 0 } });
      return undefined;
    });
    const rendered = renderAdmin({ path: '/generic-messages/edit/3', user: admin, handler });
    const spanish = (await screen.findByLabelText('Spanish translation')) as HTMLTextAreaElement;
    expect(spanish.value).toBe('Siguiente');
    expect(screen.getByText('English (en) · default')).toBeTruthy();
    expect(screen.getByText('Spanish (Mexico) (es-MX)')).toBeTruthy();
    fireEvent.change(spanish, { target: { value: 'Continuar' } });
    type('Spanish (Mexico) translation', 'Seguir');
    const patch = await saveAndOpen(rendered, '/generic-messages', 'PATCH');
    expect(patch?.body).toEqual({
      data: { type: 'generic-messages', id: '3', attributes: { message: 'Next', translations: { es: 'Continuar', fr: 'Suivant', es_MX: 'Seguir' } } },
    });
  });

  it('adds a language typed with a hyphen and sends the API form', async () => {
    const handler = configServer(async (request, url) => {
      if (url.pathname === '/api/languages' && request.method === 'POST') {
        return json(resourceDocument('languages', { ...LANGUAGES[2]!, id: 12 }), 201);
      }
      if (url.pathname === '/api/languages/12') return json(resourceDocument('languages', { ...LANGUAGES[2]!, id: 12 }));
      return undefined;
    });
    const rendered = renderAdmin({ path: '/languages/add', user: admin, handler });
    await screen.findByLabelText('Name');
    fill({ Name: 'Español (México)', Description: 'Spanish (Mexico)', 'ISO Code': 'es-MX' });
    expect(sentAttributes(await saveAndOpen(rendered, '/languages/view/12', 'POST'))).toEqual({
      name: 'Español (México)',
      description: 'Spanish (Mexico)',
      isoCode: 'es_MX',
      isActive: true,
    });
    expect(await screen.findByText('es-MX')).toBeTruthy();
  });

  it('refuses a bad language code before sending', async () => {
    const { server } = renderAdmin({ path: '/languages/add', user: admin, handler: configServer() });
    await screen.findByLabelText('Name');
    fill({ Name: 'X', Description: 'X', 'ISO Code': 'not a code' });
    save();
    expect(await screen.findByText('Enter a language code such as en, es or es-MX.')).toBeTruthy();
    expect(writes(server.requests)).toHaveLength(0);
  });

  it('adds a contact field with a type and a Spanish label', async () => {
    const handler = configServer(async (request, url) => {
      if (url.pathname === '/api/contact-fields/' && request.method === 'POST') return json(resourceDocument('contact-fields', { id: 9, label: 'City' }), 201);
      if (url.pathname === '/api/contact-fields') return json({ data: [], meta: { total: 0 } });
      return undefined;
    });
    const rendered = renderAdmin({ path: '/contact-fields/add', user: admin, handler });
    await screen.findByLabelText('Spanish translation');
    fill({ Label: 'Date of birth', Name: 'Date Of Birth' });
    save();
    expect(await screen.findByText(/Use lower-case letters, digits and underscores/)).toBeTruthy();
    type('Name', 'date_of_birth');
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'date' } });
    fireEvent.click(screen.getByLabelText('Required'));
    type('Spanish translation', 'Fecha de nacimiento');
    expect(sentAttributes(await saveAndOpen(rendered, '/contact-fields', 'POST'))).toEqual({
      label: 'Date of birth',
      name: 'date_of_birth',
      fieldType: 'date',
      required: true,
      translations: { es: 'Fecha de nacimiento' },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { json, makeUser, renderAdmin, type Handler, type Recorded } from './helpers';
import { IDLE_SIGN_OUT_MESSAGE, signOutReasonAtom } from '../../admin/state/auth';

const admin = makeUser('Admin');

const fillCredentials = (username: string, password: string) => {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
};

const loginCalls = (requests: Recorded[]) => requests.filter((r) => r.path === 'jwt/login');

describe('Login', () => {
  it('is titled Log In when reached through /', async () => {
    document.title = '';
    const { location } = renderAdmin({ path: '/' });
    await screen.findByRole('button', { name: 'Log In' });
    expect(location()).toMatch(/^\/login/);
    await waitFor(() => expect(document.title).toBe('Log In · Trial Recruit'));
  });

  it('validates the credentials before sending anything', async () => {
    const { server } = renderAdmin({ path: '/login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(loginCalls(server.requests)).toHaveLength(0);
  });

  it('says why the last session ended, until the next attempt', async () => {
    const handler: Handler = (_r, url) =>
      url.pathname === '/api/jwt/login' ? json({ success: false, data: { message: 'Invalid username or password.' } }) : undefined;
    renderAdmin({ path: '/login', handler, prepare: (store) => store.set(signOutReasonAtom, IDLE_SIGN_OUT_MESSAGE) });
    expect((await screen.findByRole('alert')).textContent).toBe(IDLE_SIGN_OUT_MESSAGE);
    fireEvent.change(screen.getByLabelText(/Username/), { target: { value: 'jane' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Invalid username or password.'));
  });

  it('shows the server message under the fields when sign-in is refused', async () => {
    const handler: Handler = (_req, url) =>
      url.pathname === '/api/jwt/login' ? json({ success: false, data: { message: 'Invalid username or password.' } }, 401) : undefined;
    const { server, location } = renderAdmin({ path: '/login', handler });
    await screen.findByLabelText('Username');
    fillCredentials('jane', 'wrong-password');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password.');
    const [call] = loginCalls(server.requests);
    expect(call?.query.get('t')).toBe('a');
    expect(call?.body).toEqual({ data: { username: 'jane', password: 'wrong-password', code: '', lang: 'en' } });
    expect(location()).toBe('/login');
  });

  it('asks for the authenticator code, submits it on the sixth digit, and Reset goes back', async () => {
    const handler: Handler = async (request, url) => {
      if (url.pathname !== '/api/jwt/login') return undefined;
      const { data } = (await request.json()) as { data: { code: string } };
      if (!data.code) {
        return json({ success: false, data: { secret_verified: true, message: 'Enter the code from your authenticator app.' } });
      }
      return json({ success: false, data: { secret_verified: true, message: 'The code is not valid.' } });
    };
    const { server } = renderAdmin({ path: '/login', handler });
    await screen.findByLabelText('Username');
    fillCredentials('jane', 'secret-password');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));

    const codeInput = await screen.findByLabelText('Google Authenticator Code');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Enter the code from your authenticator app.');

    // Five digits and Enter: refused before sending.
    fireEvent.change(codeInput, { target: { value: '12345' } });
    fireEvent.submit(codeInput.closest('form') as HTMLFormElement);
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    expect(loginCalls(server.requests)).toHaveLength(1);

    // The sixth digit sends it.
    fireEvent.change(codeInput, { target: { value: '123456' } });
    await waitFor(() => expect(loginCalls(server.requests)).toHaveLength(2));
    expect(loginCalls(server.requests)[1]?.body).toEqual({
      data: { username: 'jane', password: 'secret-password', code: '123456', lang: 'en' },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('The code is not valid.');

    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.queryByLabelText('Google Authenticator Code')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('signs in, stores the tokens and returns to the page the visitor was going to', async () => {
    const handler: Handler = (_req, url) =>
      url.pathname === '/api/jwt/login' ? json({ success: true, access: 'new-access', refresh: 'new-refresh', data: { user: admin } }) : undefined;
    const { location, tokens, router } = renderAdmin({ path: '/engagements?page=2', handler });
    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fengagements%3Fpage%3D2'));
    await screen.findByLabelText('Username');
    fillCredentials('jane', 'secret-password');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('table', { name: 'Engagements' })).toBeTruthy();
    expect(location()).toBe('/engagements?page=2');
    expect(tokens.current).toEqual({ access: 'new-access', refresh: 'new-refresh' });

    // A signed-in visitor of /login is sent to the sponsors.
    await router.navigate('/login');
    await waitFor(() => expect(location()).toBe('/sponsors'));
  });

  it('auto-submits a login through the named auth service', async () => {
    const handler: Handler = (_req, url) =>
      url.pathname === '/api/jwt/login' ? json({ success: false, data: { message: 'No single sign-on session.' } }) : undefined;
    const { server } = renderAdmin({ path: '/login?submit=1&auth_service=duo', handler });
    expect((await screen.findByRole('alert')).textContent).toBe('No single sign-on session.');
    const [call] = loginCalls(server.requests);
    expect(call?.query.get('auth_service')).toBe('duo');
    expect(call?.body).toEqual({ data: { username: '', password: '', code: '', lang: 'en' } });
    expect(loginCalls(server.requests)).toHaveLength(1);
  });

  it('links to the DUO single sign-on start page when the server offers it', async () => {
    renderAdmin({ path: '/login', handler: (_req, url) => (url.pathname === '/api/jwt/sso-services' ? Response.json({ services: ['duo'] }) : undefined) });
    const link = await screen.findByRole('link', { name: 'Log In with DUO' });
    const href = link.getAttribute('href') ?? '';
    expect(href.startsWith('/jwt/saml?auth_service=duo&auth_target=')).toBe(true);
    const target = decodeURIComponent(href.split('auth_target=')[1] ?? '');
    expect(target).toMatch(/\/login\?submit=1&auth_service=duo$/);
  });

  it('offers no single sign-on when the server has none configured', async () => {
    const { server } = renderAdmin({
      path: '/login',
      handler: (_req, url) => (url.pathname === '/api/jwt/sso-services' ? Response.json({ services: [] }) : undefined),
    });
    await waitFor(() => expect(server.requests.some((r) => r.path === 'jwt/sso-services')).toBe(true));
    await screen.findByRole('button', { name: 'Log In' });
    expect(screen.queryByRole('link', { name: 'Log In with DUO' })).toBeNull();
  });

  it('shows the busy state while the call runs', async () => {
    let answer: (response: Response) => void = () => undefined;
    const handler: Handler = (_req, url) => (url.pathname === '/api/jwt/login' ? new Promise<Response>((resolve) => (answer = resolve)) : undefined);
    renderAdmin({ path: '/login', handler });
    await screen.findByLabelText('Username');
    fillCredentials('jane', 'secret-password');
    const button = screen.getByRole('button', { name: 'Log In' }) as HTMLButtonElement;
    fireEvent.click(button);
    await waitFor(() => expect(button.disabled).toBe(true));
    answer(json({ success: false, data: { message: 'Nope.' } }));
    await screen.findByRole('alert');
    expect(button.disabled).toBe(false);
  });
});

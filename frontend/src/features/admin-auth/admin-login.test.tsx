import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { ADMIN_STORAGE_KEY } from '../../app/admin-session';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const LOGIN = 'POST /api/identity/admin/login';
const VERIFY = 'GET /api/identity/admin/session';
const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;

/** The form's own alert; the toast (also role=alert) lives outside <main>. */
const inlineAlert = () => within(screen.getByRole('main')).findByRole('alert');

async function fillAndSubmit(username = 'alice', password = 'correct horse') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), username);
  // Enter in the password field submits: the form is keyboard-friendly.
  await user.type(screen.getByLabelText('Password'), `${password}{Enter}`);
}

describe('Admin login', () => {
  it('shows "Invalid credentials" on a 401 and sends JSON {username, password}', async () => {
    const { calls } = mockFetch({ [LOGIN]: () => apiError(401, 'INVALID_CREDENTIALS', MESSAGES.invalidCredentials) });
    renderAt('/admin/login');
    await fillAndSubmit();

    expect(await inlineAlert()).toHaveTextContent('Invalid credentials');
    expect(screen.getAllByText('Invalid credentials')).toHaveLength(2); // the inline alert and the toast
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/identity/admin/login',
      body: { username: 'alice', password: 'correct horse' },
      credentials: 'include',
    });
    expect(window.sessionStorage.getItem(ADMIN_STORAGE_KEY)).toBeNull();
  });

  it('falls back to the spec text when a 401 has no body', async () => {
    mockFetch({ [LOGIN]: () => new Response('', { status: 401 }) });
    renderAt('/admin-login');
    await fillAndSubmit();
    expect(await inlineAlert()).toHaveTextContent(MESSAGES.invalidCredentials);
  });

  it("shows the server's message on a 429", async () => {
    mockFetch({ [LOGIN]: () => apiError(429, 'RATE_LIMITED', 'Too many attempts. Please wait a minute and try again.') });
    renderAt('/admin/login');
    await fillAndSubmit();
    expect(await inlineAlert()).toHaveTextContent('Too many attempts. Please wait a minute and try again.');
  });

  it('says "Login failed. Please try again." when the network fails', async () => {
    mockFetch({ [LOGIN]: () => Promise.reject(new TypeError('Failed to fetch')) });
    renderAt('/admin/login');
    await fillAndSubmit();
    expect(await inlineAlert()).toHaveTextContent('Login failed. Please try again.');
  });

  it('requires both fields and does not call the server without them', async () => {
    const { calls } = mockFetch({});
    renderAt('/admin/login');
    const username = await screen.findByLabelText('Username');
    expect(username).toHaveFocus();
    expect(username).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please enter your username')).toBeInTheDocument();
    expect(await screen.findByText('Please enter your password')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('on success keeps only the user (no token), toasts and opens /admin', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({
      [LOGIN]: () =>
        json(200, {
          success: true,
          message: 'Login successful',
          user: alice,
          session_token: 'secret-token-never-stored',
          expires_at: '2026-03-05T18:00:00Z',
        }),
      [VERIFY]: () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
    });
    const { router, store } = renderAt('/admin/login');
    await fillAndSubmit();

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByText('Welcome back, alice')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.loginSuccessful)).toBeInTheDocument();
    expect(store.getState().adminSession.user).toEqual(alice);
    expect(JSON.parse(window.sessionStorage.getItem(ADMIN_STORAGE_KEY) ?? 'null')).toEqual(alice);
    expect(JSON.stringify(window.sessionStorage)).not.toContain('secret-token');
    expect(window.sessionStorage.length).toBe(1);
  });

  // Issue 32: an admin panel account with two-factor sign-in on gives its code after the password.
  const askForCode = () =>
    json(401, {
      error: {
        code: 'UNAUTHENTICATED',
        message: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
        details: [{ path: 'totp_code', message: 'required' }],
      },
    });
  const signedIn = (over: object = {}) =>
    json(200, { success: true, message: 'Login successful', user: alice, session_token: 't', expires_at: '2026-03-05T18:00:00Z', ...over });

  it('asks for the code after the password (one-time-code field), then sends both; a wrong code keeps the second step', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { callsTo } = mockFetch({
      [LOGIN]: [
        askForCode,
        () => apiError(401, 'INVALID_CREDENTIALS', 'That code is not right, or it has already been used.'),
        () => signedIn(),
      ],
      [VERIFY]: () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
    });
    const { router } = renderAt('/admin/login');
    await fillAndSubmit();
    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(within(screen.getByRole('main')).queryByRole('alert')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(code, '000 000{Enter}');
    expect(await inlineAlert()).toHaveTextContent('That code is not right, or it has already been used.');
    expect(callsTo(LOGIN)[1]?.body).toEqual({ username: 'alice', password: 'correct horse', totp_code: '000000' });
    await user.type(screen.getByLabelText('Authentication code'), '123456{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(callsTo(LOGIN)[2]?.body).toEqual({ username: 'alice', password: 'correct horse', totp_code: '123456' });
  });

  it('"Use a recovery code" sends recovery_code instead', async () => {
    const { callsTo } = mockFetch({ [LOGIN]: [askForCode, () => apiError(401, 'INVALID_CREDENTIALS', 'No')] });
    renderAt('/admin/login');
    await fillAndSubmit();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(await screen.findByLabelText('Recovery code'), 'abcde-fghjk{Enter}');
    await waitFor(() => expect(callsTo(LOGIN)).toHaveLength(2));
    expect(callsTo(LOGIN)[1]?.body).toEqual({ username: 'alice', password: 'correct horse', recovery_code: 'abcde-fghjk' });
  });

  it('an account the practice requires a second factor of goes to Account security, and only there, until it is on', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let enrolled = false;
    const session = { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' };
    const codes = Array.from({ length: 10 }, (_, i) => `code${i}-abcde-fghjk`);
    const { callsTo } = mockFetch({
      [LOGIN]: () => signedIn({ two_factor_enrolment_required: true }),
      [VERIFY]: () => json(200, enrolled ? session : { ...session, two_factor_enrolment_required: true }),
      'GET /api/identity/admin/two-factor': () => json(200, { totp_enabled: enrolled, recovery_codes_left: enrolled ? 10 : 0 }),
      'POST /api/identity/admin/two-factor/totp': () =>
        json(200, { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/Practice:alice?secret=JBSWY3DPEHPK3PXP&issuer=Practice' }),
      'POST /api/identity/admin/two-factor/totp/confirm': () => {
        enrolled = true;
        return json(200, { recovery_codes: codes });
      },
      'POST /api/identity/admin/refresh': () => json(200, session),
    });
    const { router } = renderAt('/admin/login');
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/account-security'));
    expect(await screen.findByText('Two-factor sign-in is required')).toBeInTheDocument();
    // No sidebar while enrolling; another admin page leads back here.
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
    await router.navigate('/admin/clients');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/account-security'));

    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Set up an authenticator app/ }));
    await user.type(await screen.findByLabelText('Authentication code'), '123456{Enter}');
    // The codes stay on the page after the session's token is refreshed (shown once).
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    await waitFor(() => expect(callsTo('POST /api/identity/admin/refresh')).toHaveLength(1));
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    // The card says it is on, without re-reading the session.
    expect(await screen.findByText('On')).toBeInTheDocument();
    expect(callsTo('POST /api/identity/admin/two-factor/totp/confirm')[0]?.body).toEqual({ code: '123456' });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByRole('navigation', { name: 'Admin' })).toBeInTheDocument();
  });
});

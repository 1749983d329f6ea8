import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { ME_STAFF } from './fixtures';

const LOGIN = 'POST /api/identity/auth/login';
const config = { 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) };

async function signIn(email = 'sam@example.co.uk', password = 'secret-1') {
  const user = userEvent.setup();
  const field = await screen.findByLabelText('Email');
  expect(field).toHaveFocus();
  expect(field).toHaveAttribute('type', 'email');
  await user.type(field, email);
  await user.type(screen.getByLabelText('Password'), `${password}{Enter}`);
}

const inlineAlert = () => within(screen.getByRole('main')).findByRole('alert');

describe('Staff login', () => {
  it("sends portal 'staff'; on success says 'Welcome back!' and opens the portal", async () => {
    const { callsTo } = mockFetch({
      ...config,
      [LOGIN]: () => json(200, { ...ME_STAFF, success: true, message: MESSAGES.welcomeBack, access_token: 'x' }),
      'GET /api/identity/auth/me': () => json(200, ME_STAFF),
    });
    const { router } = renderAt('/staff-login');
    expect(await screen.findByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff/dashboard'));
    expect(callsTo(LOGIN)[0]?.body).toEqual({ email: 'sam@example.co.uk', password: 'secret-1', portal: 'staff' });
    expect(await screen.findByText(MESSAGES.welcomeBack)).toBeInTheDocument();
    expect(await screen.findByText('Welcome back, Sam')).toBeInTheDocument();
  });

  it("401: 'Login Failed' with the server's message", async () => {
    mockFetch({ ...config, [LOGIN]: () => apiError(401, 'INVALID_CREDENTIALS', MESSAGES.invalidEmailOrPassword) });
    renderAt('/staff/login');
    await signIn();
    const alert = await inlineAlert();
    expect(alert).toHaveTextContent(MESSAGES.loginFailedTitle);
    expect(alert).toHaveTextContent(MESSAGES.invalidEmailOrPassword);
  });

  it("401 without a body: 'Invalid email or password'", async () => {
    mockFetch({ ...config, [LOGIN]: () => new Response('', { status: 401 }) });
    renderAt('/staff/login');
    await signIn();
    expect(await inlineAlert()).toHaveTextContent(MESSAGES.invalidEmailOrPassword);
  });

  it('403: "You don\'t have staff access to this system"', async () => {
    mockFetch({ ...config, [LOGIN]: () => apiError(403, 'FORBIDDEN', MESSAGES.noStaffAccess) });
    const { router } = renderAt('/staff-login');
    await signIn();
    expect(await inlineAlert()).toHaveTextContent(MESSAGES.noStaffAccess);
    expect(router.state.location.pathname).toBe('/staff-login');
  });

  it("429: the server's message", async () => {
    mockFetch({
      ...config,
      [LOGIN]: () => apiError(429, 'RATE_LIMITED', 'Too many failed sign-in attempts. Please wait 15 minutes and try again.'),
    });
    renderAt('/staff-login');
    await signIn();
    expect(await inlineAlert()).toHaveTextContent('Too many failed sign-in attempts. Please wait 15 minutes and try again.');
  });
});

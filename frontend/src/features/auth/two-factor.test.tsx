import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { ME_STAFF } from '../staff/fixtures';

// Issue 32: the sign-in pages ask for the second factor; Account security sets it up.
const LOGIN = 'POST /api/identity/auth/login';
const config = { 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) };
const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.';
const askForCode = () =>
  json(401, { error: { code: 'UNAUTHENTICATED', message: CODE_REQUIRED, details: [{ path: 'totp_code', message: 'required' }] } });
const signedIn = (over: object = {}) =>
  json(200, { ...ME_STAFF, success: true, message: MESSAGES.welcomeBack, access_token: 'x', ...over });

async function password(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Email'), 'sam@example.co.uk');
  await user.type(screen.getByLabelText('Password'), 'secret-1{Enter}');
}

describe('sign-in with a second factor', () => {
  it('asks for the code after the password, then sends it with the password', async () => {
    const { callsTo } = mockFetch({
      ...config,
      [LOGIN]: [askForCode, () => signedIn()],
      'GET /api/identity/auth/me': () => json(200, ME_STAFF),
    });
    const { router } = renderAt('/staff-login');
    const user = userEvent.setup();
    await password(user);
    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(code, '123 456{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff/dashboard'));
    expect(callsTo(LOGIN)[1]?.body).toEqual({ email: 'sam@example.co.uk', password: 'secret-1', portal: 'staff', totp_code: '123456' });
  });

  it('a recovery code instead', async () => {
    const { callsTo } = mockFetch({ ...config, [LOGIN]: [askForCode, () => signedIn({ roles: ['client'] })] });
    renderAt('/login');
    const user = userEvent.setup();
    await password(user);
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(await screen.findByLabelText('Recovery code'), 'abcde-fghjk-mnpqr{Enter}');
    await waitFor(() => expect(callsTo(LOGIN)).toHaveLength(2));
    expect(callsTo(LOGIN)[1]?.body).toMatchObject({ recovery_code: 'abcde-fghjk-mnpqr' });
    expect(callsTo(LOGIN)[1]?.body).not.toHaveProperty('totp_code');
  });

  it('a member of staff the practice requires it of goes to Account security first', async () => {
    const me = { ...ME_STAFF, two_factor_enrolment_required: true };
    mockFetch({
      ...config,
      [LOGIN]: () => signedIn({ two_factor_enrolment_required: true }),
      'GET /api/identity/auth/me': () => json(200, me),
      'GET /api/identity/auth/two-factor': () => json(200, { totp_enabled: false, recovery_codes_left: 0 }),
    });
    const { router } = renderAt('/staff-login');
    await password(userEvent.setup());
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/security'));
    expect(await screen.findByText('Two-factor sign-in is required')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.twoFactorEnrolmentRequired)).toBeInTheDocument();
  });
});

describe('Account security', () => {
  it('sets up an authenticator app: QR code and key, a first code, ten recovery codes shown once', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `abcde-fghjk-mnp${String(i).padStart(2, '2')}`);
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const { callsTo } = mockFetch({
      'GET /api/identity/auth/me': () => json(200, ME_STAFF),
      'GET /api/identity/auth/two-factor': [
        () => json(200, { totp_enabled: false, recovery_codes_left: 0 }),
        () => json(200, { totp_enabled: true, recovery_codes_left: 10 }),
      ],
      'POST /api/identity/auth/two-factor/totp': () =>
        json(200, { secret, otpauth_uri: `otpauth://totp/Test%3Asam%40example.co.uk?secret=${secret}&issuer=Test` }),
      'POST /api/identity/auth/two-factor/totp/confirm': () => json(200, { recovery_codes: codes }),
      'POST /api/identity/auth/refresh': () => json(200, ME_STAFF),
    });
    renderAt('/account/security');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Account security' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /Set up an authenticator app/ }));
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    await user.type(screen.getByLabelText('Authentication code'), '654321{Enter}');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('button', { name: /Download codes/ })).toBeInTheDocument();
    expect(callsTo('POST /api/identity/auth/two-factor/totp/confirm')[0]?.body).toEqual({ code: '654321' });
    // The session is refreshed so the next token carries no enrolment restriction.
    await waitFor(() => expect(callsTo('POST /api/identity/auth/refresh')).toHaveLength(1));
  });
});

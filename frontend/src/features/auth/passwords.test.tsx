import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { ME_STAFF } from '../staff/fixtures';

const FORGOT = 'POST /api/identity/auth/forgot-password';
const LOOKUP = 'GET /api/identity/auth/reset-password/lookup';
const RESET = 'POST /api/identity/auth/reset-password';
const CHANGE = 'POST /api/identity/auth/password';
const config = { 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) };
const neutral = () => json(200, { success: true, message: MESSAGES.passwordResetRequested });

describe('Forgot password', { timeout: 60_000 }, () => {
  it('is linked from the client and staff sign-in pages', async () => {
    mockFetch(config);
    const { router, unmount } = renderAt('/login');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
    // (the client's page gone first: a link found on it would answer before the staff page has loaded)
    unmount();
    renderAt('/staff-login');
    const staffLink = await screen.findByRole('link', { name: 'Forgot password?' });
    expect(staffLink).toHaveAttribute('href', '/forgot-password?from=staff');
  });

  it("sends the e-mail and shows the server's neutral answer instead of the form", async () => {
    const { callsTo } = mockFetch({ ...config, [FORGOT]: neutral });
    renderAt('/forgot-password?from=staff');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), ' someone@example.co.uk {Enter}');
    expect(await screen.findByText(MESSAGES.passwordResetRequested)).toBeInTheDocument();
    expect(callsTo(FORGOT)[0]?.body).toEqual({ email: 'someone@example.co.uk' });
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/staff-login');
  });

  it('the server refusing (too many attempts) is said, and the form stays', async () => {
    mockFetch({ ...config, [FORGOT]: () => apiError(429, 'RATE_LIMITED', MESSAGES.tooManyRequests) });
    renderAt('/forgot-password');
    await userEvent.setup().type(await screen.findByLabelText('Email'), 'a@example.co.uk{Enter}');
    expect(await screen.findByText(MESSAGES.tooManyRequests)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
  });
});

describe('Reset password', { timeout: 60_000 }, () => {
  it('an invalid or used link says so and offers a new one, without a form', async () => {
    mockFetch({ ...config, [LOOKUP]: () => json(200, { valid: false, message: MESSAGES.passwordResetInvalid, is_staff: false }) });
    renderAt('/reset-password?token=used');
    expect(await screen.findByText(MESSAGES.passwordResetInvalid)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
  });

  it('sets the new password, with the server refusing a common one for staff', async () => {
    const { callsTo } = mockFetch({
      ...config,
      [LOOKUP]: () => json(200, { valid: true, message: null, is_staff: true }),
      [RESET]: [
        () => apiError(400, 'VALIDATION_FAILED', MESSAGES.commonPassword),
        () => json(200, { success: true, message: MESSAGES.passwordResetDone }),
      ],
    });
    renderAt('/reset-password?token=tok');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^New password/), 'sunshine');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'sunshine{Enter}');
    expect(await screen.findByText(MESSAGES.commonPassword)).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^New password/));
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await user.type(screen.getByLabelText(/^New password/), 'Harder-To-Guess-9');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Harder-To-Guess-9{Enter}');
    expect(await screen.findByText(MESSAGES.passwordResetDone)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/staff-login');
    expect(callsTo(RESET).at(-1)?.body).toEqual({ token: 'tok', password: 'Harder-To-Guess-9', confirm_password: 'Harder-To-Guess-9' });
  });
});

describe('Change password', { timeout: 60_000 }, () => {
  it('in the staff portal: needs the current password; says other sessions were signed out', async () => {
    const { callsTo } = mockFetch({
      ...config,
      'GET /api/identity/auth/me': () => json(200, ME_STAFF),
      [CHANGE]: [
        () => apiError(401, 'INVALID_CREDENTIALS', MESSAGES.currentPasswordWrong),
        () => json(200, { success: true, message: MESSAGES.passwordChanged }),
      ],
    });
    renderAt('/staff/dashboard');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Change password/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Current password'), 'wrong');
    await user.type(within(dialog).getByLabelText(/^New password/), 'Brand-New-Pass-4');
    await user.type(within(dialog).getByLabelText(/^Confirm new password/), 'Brand-New-Pass-4{Enter}');
    expect(await within(dialog).findByText(MESSAGES.currentPasswordWrong)).toBeInTheDocument();
    // still signed in: a wrong current password is not an expired session
    expect(screen.getByText('Welcome back, Sam')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Current password'), 'right-one{Enter}');
    expect(await screen.findByText(MESSAGES.passwordChanged)).toBeInTheDocument();
    expect(callsTo(CHANGE).at(-1)?.body).toEqual({
      current_password: 'right-one',
      new_password: 'Brand-New-Pass-4',
      confirm_password: 'Brand-New-Pass-4',
    });
  });
});

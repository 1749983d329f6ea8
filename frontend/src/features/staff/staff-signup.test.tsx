import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const LOOKUP = 'GET /api/identity/invitations/lookup';
const ACCEPT = 'POST /api/identity/invitations/accept';
const config = { 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) };
const valid = { valid: true, message: null, email: 'sam@example.co.uk', role: 'manager', expires_at: '2026-03-12T10:00:00Z' };

describe('Staff signup', () => {
  it("says 'No invitation token provided' without a token, and never asks the server", async () => {
    const { callsTo } = mockFetch(config);
    renderAt('/staff/signup');
    expect(await screen.findByRole('heading', { name: MESSAGES.invalidInvitationTitle })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invalidInvitationText)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.noInvitationToken)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: MESSAGES.returnToHome })).toHaveAttribute('href', '/');
    expect(callsTo(LOOKUP)).toHaveLength(0);
  });

  it("shows 'Validating invitation...' then the Invalid Invitation page with the server's reason", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    mockFetch({
      ...config,
      [LOOKUP]: async () => {
        await gate;
        return json(200, { valid: false, message: MESSAGES.invitationExpired, email: null, role: null, expires_at: null });
      },
    });
    renderAt('/staff/signup?token=tok123');
    expect(await screen.findByText(MESSAGES.validatingInvitation)).toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { name: MESSAGES.invalidInvitationTitle })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invitationExpired)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Complete Registration' })).not.toBeInTheDocument();
  });

  it('checks the passwords on this side (match, at least 6 characters) before calling the server', async () => {
    const { callsTo } = mockFetch({ ...config, [LOOKUP]: () => json(200, valid) });
    renderAt('/staff/signup?token=tok123');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Complete Registration' }));
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('sam@example.co.uk');
    expect(email).toHaveAttribute('readonly');
    expect(screen.getByText('You have been invited to join the practice with the role', { exact: false })).toHaveTextContent('Manager');
    expect(screen.getByRole('link', { name: 'Already have an account? Sign In' })).toHaveAttribute('href', '/staff/login');

    await user.type(screen.getByLabelText('Password'), '12345');
    await user.type(screen.getByLabelText('Confirm password'), '54321{Enter}');
    expect(await screen.findByText(MESSAGES.passwordTooShort)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.passwordsDoNotMatch)).toBeInTheDocument();
    expect(callsTo(ACCEPT)).toHaveLength(0);
  });

  it("shows the server's error as given ('This invitation has expired')", async () => {
    mockFetch({ ...config, [LOOKUP]: () => json(200, valid), [ACCEPT]: () => apiError(410, 'GONE', MESSAGES.invitationExpired) });
    renderAt('/staff/signup?token=tok123');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Password'), 'secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret-1{Enter}');
    expect(await within(screen.getByRole('main')).findByRole('alert')).toHaveTextContent(MESSAGES.invitationExpired);
  });

  it("on success goes to /staff/login with the server's message, sending token, e-mail and both passwords", async () => {
    const { callsTo } = mockFetch({
      ...config,
      [LOOKUP]: () => json(200, valid),
      [ACCEPT]: () => json(200, { success: true, message: MESSAGES.accountCreated }),
    });
    const { router } = renderAt('/staff/signup?token=tok123');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('First name (optional)'), 'Sam');
    await user.type(screen.getByLabelText('Password'), 'secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret-1{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/staff/login'));
    expect(await screen.findByRole('heading', { name: 'Staff login' })).toBeInTheDocument();
    expect(screen.getAllByText(MESSAGES.accountCreated).length).toBeGreaterThanOrEqual(1);
    expect(callsTo(ACCEPT)[0]?.body).toEqual({
      token: 'tok123',
      email: 'sam@example.co.uk',
      password: 'secret-1',
      confirm_password: 'secret-1',
      first_name: 'Sam',
    });
  });
});

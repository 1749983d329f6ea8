import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, type Invitation, type InvitationWithLink, type StaffMember } from '@countinghouse/proto';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

// The panel under the admin session, at /admin/staff (the same component as the portal's tab).
const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;
const SESSION = 'GET /api/identity/admin/session';
const INVITATIONS = 'GET /api/identity/invitations';
const INVITE = 'POST /api/identity/invitations';
const STAFF = 'GET /api/identity/staff';
const pending: Invitation = {
  id: '10000000-0000-4000-8000-000000000001',
  email: 'new@example.co.uk',
  role: 'staff',
  invited_by: 'a1',
  invited_by_name: 'alice',
  status: 'pending',
  expires_at: '2026-03-12T10:00:00Z',
  created_at: '2026-03-05T10:00:00Z',
  delivery: 'log',
};
const LINK = 'http://localhost:3000/staff/signup?token=abc';
const withLink = (over: Partial<InvitationWithLink> = {}): InvitationWithLink => ({ ...pending, invite_url: LINK, ...over });
const sam: StaffMember = {
  id: '20000000-0000-4000-8000-000000000001',
  user_id: '00000000-0000-4000-8000-000000000001',
  email: 'sam@example.co.uk',
  first_name: 'Sam',
  last_name: 'Stone',
  role: 'staff',
  is_active: true,
  granted_at: '2026-03-06T10:00:00Z',
};
const base = {
  [SESSION]: () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
  [INVITATIONS]: () => json(200, { invitations: [pending], smtp_configured: false }),
  [STAFF]: () => json(200, { staff: [sam] }),
};

async function openPanel() {
  renderAt('/admin/staff');
  return within(await screen.findByRole('main'));
}

// antd's popups make these slow on a busy machine; the default 20 s is too tight.
describe('Staff Management panel', { timeout: 60_000 }, () => {
  it("the send button is disabled until both fields are filled; Enter with a field empty says 'Please fill in all fields'", async () => {
    const { callsTo } = mockFetch(base);
    await openPanel();
    const send = await screen.findByRole('button', { name: /Send Invitation/ });
    expect(send).toBeDisabled();
    const user = userEvent.setup();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'email');
    await user.type(email, 'x@example.co.uk{Enter}');
    expect(await screen.findByText(MESSAGES.pleaseFillInAllFields)).toBeInTheDocument();
    expect(send).toBeDisabled();
    expect(callsTo(INVITE)).toHaveLength(0);
  });

  it('invites with e-mail and role and refreshes the list; the new link is what the clipboard then holds', async () => {
    const { callsTo } = mockFetch({
      ...base,
      [INVITE]: () => json(201, withLink({ id: '10000000-0000-4000-8000-000000000009', email: 'x@example.co.uk' })),
    });
    await openPanel();
    // user-event puts a clipboard stub on navigator.
    const user = userEvent.setup();
    await navigator.clipboard.writeText('untouched');
    await user.type(await screen.findByLabelText('Email'), 'x@example.co.uk');
    await user.click(screen.getByLabelText('Role'));
    await user.click(await screen.findByTitle('Accountant'));
    const send = screen.getByRole('button', { name: /Send Invitation/ });
    await waitFor(() => expect(send).toBeEnabled());
    await user.click(send);
    await waitFor(() => expect(callsTo(INVITE)).toHaveLength(1));
    expect(callsTo(INVITE)[0]?.body).toEqual({ email: 'x@example.co.uk', role: 'accountant' });
    await waitFor(() => expect(callsTo(INVITATIONS).length).toBeGreaterThanOrEqual(2));
    // the spec's 'Invite link copied to clipboard! Share it with the staff member.': copied at creation
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('http://localhost:3000/staff/signup?token=abc'));
  });

  it("'Failed to send invitation' with the server's reason", async () => {
    mockFetch({ ...base, [INVITE]: () => apiError(409, 'CONFLICT', 'x@example.co.uk already has the staff role.') });
    await openPanel();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'x@example.co.uk');
    await user.click(screen.getByLabelText('Role'));
    await user.click(await screen.findByTitle('Staff'));
    await user.click(screen.getByRole('button', { name: /Send Invitation/ }));
    expect(await screen.findByText(MESSAGES.failedToSendInvitation)).toBeInTheDocument();
    expect(screen.getByText('x@example.co.uk already has the staff role.')).toBeInTheDocument();
  });

  it("the link is shown once, at creation, and copied ('… Share it with the staff member.'); Copy Link copies it again with 'Invite link copied to clipboard!'", async () => {
    mockFetch({ ...base, [INVITE]: () => json(201, withLink({ email: 'x@example.co.uk' })) });
    await openPanel();
    // the list carries no link, so nothing to copy before an invitation is made
    await screen.findAllByTestId('invitation');
    expect(screen.queryByRole('button', { name: /Copy Link/ })).toBeNull();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'x@example.co.uk');
    await user.click(screen.getByLabelText('Role'));
    await user.click(await screen.findByTitle('Staff'));
    await user.click(screen.getByRole('button', { name: /Send Invitation/ }));
    expect(await screen.findByText(MESSAGES.inviteLinkShownOnce)).toBeInTheDocument();
    expect(screen.getByLabelText('Sign-up link for x@example.co.uk')).toHaveValue(LINK);
    expect(await screen.findByText(MESSAGES.inviteLinkCopiedShare)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(LINK);
    await navigator.clipboard.writeText('something else');
    await user.click(screen.getByRole('button', { name: /Copy Link/ }));
    expect(await screen.findByText(MESSAGES.inviteLinkCopied)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(LINK);
  });

  it('Re-send asks first, then shows the fresh link once', async () => {
    const key = `POST /api/identity/invitations/${pending.id}/resend`;
    const fresh = 'http://localhost:3000/staff/signup?token=fresh';
    const { callsTo } = mockFetch({ ...base, [key]: () => json(200, withLink({ invite_url: fresh })) });
    await openPanel();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(`Re-send the invitation to ${pending.email}`));
    expect(callsTo(key)).toHaveLength(0);
    await user.click((await screen.findAllByText('Re-send')).at(-1)!);
    expect(await screen.findByText(`Invitation re-sent to ${pending.email}`)).toBeInTheDocument();
    expect(screen.getByLabelText(`Sign-up link for ${pending.email}`)).toHaveValue(fresh);
    expect(callsTo(key)).toHaveLength(1);
  });

  // Text and label queries: role queries over antd's large DOM are slow in jsdom.
  it("cancel asks first, then 'Invitation cancelled'", async () => {
    const key = `POST /api/identity/invitations/${pending.id}/cancel`;
    const { callsTo } = mockFetch({ ...base, [key]: () => json(200, { ...pending, status: 'cancelled' }) });
    await openPanel();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(`Cancel invitation for ${pending.email}`));
    expect(callsTo(key)).toHaveLength(0);
    await user.click(await screen.findByText('Cancel invitation'));
    expect(await screen.findByText(MESSAGES.invitationCancelled)).toBeInTheDocument();
    expect(callsTo(key)).toHaveLength(1);
  });

  it("a failed cancel says 'Failed to cancel invitation'", async () => {
    mockFetch({
      ...base,
      [`POST /api/identity/invitations/${pending.id}/cancel`]: () => apiError(500, 'INTERNAL', MESSAGES.internalError),
    });
    await openPanel();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(`Cancel invitation for ${pending.email}`));
    await user.click(await screen.findByText('Cancel invitation'));
    expect(await screen.findByText(MESSAGES.failedToCancelInvitation)).toBeInTheDocument();
  });

  it("deactivate asks first, then 'Staff member deactivated'", async () => {
    const key = `POST /api/identity/staff/${sam.user_id}/deactivate`;
    const { callsTo } = mockFetch({ ...base, [key]: () => json(200, { success: true, message: MESSAGES.staffDeactivated }) });
    await openPanel();
    const row = (await screen.findAllByTestId('staff-member'))[0]!;
    expect(row).toHaveTextContent('Sam Stone');
    expect(row).toHaveTextContent('Granted 06 Mar 2026');
    const user = userEvent.setup();
    await user.click(within(row).getByLabelText('Deactivate Sam Stone'));
    expect(callsTo(key)).toHaveLength(0);
    // The row's button says it too; the confirmation is rendered last (a portal).
    await user.click((await screen.findAllByText('Deactivate')).at(-1)!);
    expect(await screen.findByText(MESSAGES.staffDeactivated)).toBeInTheDocument();
    expect(callsTo(key)).toHaveLength(1);
  });

  it('Access shows what a member of staff can still reach; after a deactivation it says nothing is left', async () => {
    const key = `GET /api/identity/staff/${sam.user_id}/access`;
    const left = {
      user_id: sam.user_id,
      roles: [{ role: 'staff', granted_at: '2026-03-06T10:00:00Z' }],
      sessions: [],
      invitations_sent: [{ id: pending.id, email: 'hire@example.co.uk', role: 'staff', expires_at: '2026-03-12T10:00:00Z' }],
      password_reset_links: [],
      calendar_feeds: [{ service: 'deadlines', since: '2026-03-07T09:00:00Z' }],
      nothing_left: false,
    };
    const none = { ...left, roles: [], invitations_sent: [], calendar_feeds: [], nothing_left: true };
    const { callsTo } = mockFetch({
      ...base,
      [key]: [() => json(200, left), () => json(200, none)],
      [`POST /api/identity/staff/${sam.user_id}/deactivate`]: () => json(200, { success: true, message: MESSAGES.staffDeactivated }),
    });
    await openPanel();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Access: what Sam Stone can still reach'));
    expect(await screen.findByText('What Sam Stone can still reach')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Invitations they sent' })).toHaveTextContent(
      'hire@example.co.uk (Staff), expires 12 Mar 2026',
    );
    expect(screen.getByRole('region', { name: 'Calendar feeds' })).toHaveTextContent('Deadlines feed made 07 Mar 2026');
    await user.keyboard('{Escape}');
    await user.click(await screen.findByLabelText('Deactivate Sam Stone'));
    await user.click((await screen.findAllByText('Deactivate')).at(-1)!);
    expect(await screen.findByText('Nothing left')).toBeInTheDocument();
    expect(callsTo(key).length).toBeGreaterThanOrEqual(2);
  });

  it("a failed deactivation says 'Failed to deactivate staff member' with the reason", async () => {
    const reason = 'Only an administrator can deactivate an administrator.';
    mockFetch({ ...base, [`POST /api/identity/staff/${sam.user_id}/deactivate`]: () => apiError(403, 'FORBIDDEN', reason) });
    await openPanel();
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Deactivate Sam Stone'));
    await user.click((await screen.findAllByText('Deactivate')).at(-1)!);
    expect(await screen.findByText(MESSAGES.failedToDeactivateStaff)).toBeInTheDocument();
    expect(screen.getByText(reason)).toBeInTheDocument();
  });

  it('without SMTP says the e-mails are kept in the outgoing-mail log, which an admin can open', async () => {
    mockFetch({
      ...base,
      'GET /api/identity/outgoing-mail': () =>
        json(200, {
          smtp_configured: false,
          mail: [
            {
              id: '30000000-0000-4000-8000-000000000001',
              to: 'new@example.co.uk',
              subject: 'You are invited to join the team',
              body: 'Open http://localhost:3000/staff/signup?token=abc',
              transport: 'log',
              status: 'logged',
              error: null,
              created_at: '2026-03-05T10:00:00Z',
            },
          ],
        }),
    });
    await openPanel();
    expect(await screen.findByText('E-mail is not set up on this server')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open the outgoing-mail log' }));
    expect(await screen.findByText('You are invited to join the team')).toBeInTheDocument();
  });
});

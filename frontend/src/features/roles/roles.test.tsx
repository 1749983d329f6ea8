import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES, PERMISSIONS, permissionsOf, ROLE_DESCRIPTIONS, ROLES, type RoleHolder, type RoleList } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;
const ADMIN_ID = '00000000-0000-4000-8000-0000000000a1';
const PAT_ID = '00000000-0000-4000-8000-000000000011';
const base = {
  'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
  'GET /api/identity/admin/session': () => json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' }),
  'GET /api/crm/sidebar-counts': () => json(200, { clients: 0, leads: 0, tasks: 0, upgrades: 0, communications: 0 }),
  'GET /api/notifications/unread-count': () => json(200, { unread: 0, latest: [] }),
  'GET /api/identity/users': () =>
    json(200, {
      users: [
        {
          user_id: PAT_ID,
          name: 'Pat Jones',
          email: 'pat@example.co.uk',
          company_name: null,
          role: 'client',
          status: 'active',
          created_at: '2026-03-01T10:00:00Z',
        },
      ],
      total: 1,
      stats: { total_users: 1, active_clients: 1, new_this_month: 1 },
    }),
};

const adminAccount: RoleHolder = {
  kind: 'admin_account',
  id: ADMIN_ID,
  name: 'alice',
  email: null,
  username: 'alice',
  since: '2026-01-02T09:00:00Z',
};
const pat: RoleHolder = {
  kind: 'person',
  id: PAT_ID,
  name: 'Pat Jones',
  email: 'pat@example.co.uk',
  username: null,
  since: '2026-03-05T10:00:00Z',
};

function roleList(holders: Partial<Record<(typeof ROLES)[number], RoleHolder[]>>): RoleList {
  return {
    active_admins: holders.admin?.length ?? 0,
    roles: ROLES.map((role) => ({
      role,
      description: ROLE_DESCRIPTIONS[role],
      permissions: permissionsOf(role),
      holders: holders[role] ?? [],
      holder_count: holders[role]?.length ?? 0,
    })),
  };
}

const card = (role: string) => screen.getByTestId(`role-${role}`);

describe('User Roles (/admin/roles)', () => {
  it('shows the permissions matrix from the proto table, grouped by area, one column per role', async () => {
    mockFetch({ ...base, 'GET /api/identity/roles': () => json(200, roleList({ admin: [adminAccount] })) });
    renderAt('/admin/roles');
    expect(await screen.findByRole('heading', { level: 1, name: 'User Roles' }, { timeout: 30_000 })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Permissions by role' });
    const headers = [...table.querySelectorAll('thead th')].map((h) => h.textContent);
    expect(headers).toEqual(['Permission', 'Admin', 'Manager', 'Staff', 'Accountant', 'Client', 'MLRO']);
    // every permission is a row, with a tick exactly for the roles the table lists
    for (const p of PERMISSIONS) {
      const row = table.querySelector(`tr[data-permission="${p.key}"]`)!;
      expect(row, p.key).not.toBeNull();
      expect(row).toHaveTextContent(p.label);
      const ticks = [...row.querySelectorAll('td')].map((td) => td.classList.contains('roles-matrix__yes'));
      expect(ticks, p.key).toEqual(ROLES.map((r) => (p.roles as readonly string[]).includes(r)));
    }
    const areas = [...table.querySelectorAll('tr.roles-matrix__area th')].map((h) => h.textContent);
    expect(areas).toEqual([...new Set(PERMISSIONS.map((p) => p.area))]);
    // grouped: each area's permissions follow its heading row
    const order = [...table.querySelectorAll('tbody tr[data-permission]')].map((tr) => tr.getAttribute('data-permission'));
    expect(order).toEqual(areas.flatMap((a) => PERMISSIONS.filter((p) => p.area === a).map((p) => p.key)));
  }, 60_000);

  it('lists holders per role, marks admin panel accounts, and says when nobody holds a role', async () => {
    mockFetch({ ...base, 'GET /api/identity/roles': () => json(200, roleList({ admin: [adminAccount], manager: [pat] })) });
    renderAt('/admin/roles');
    await waitFor(() => expect(within(card('manager')).getByText('Pat Jones (pat@example.co.uk)')).toBeInTheDocument(), {
      timeout: 30_000,
    });
    expect(within(card('manager')).getByText('05 Mar 2026')).toBeInTheDocument();
    expect(within(card('admin')).getByText('alice')).toBeInTheDocument();
    expect(within(card('admin')).getByText('Admin panel account')).toBeInTheDocument();
    expect(within(card('admin')).getByText(ROLE_DESCRIPTIONS.admin)).toBeInTheDocument();
    for (const role of ['staff', 'accountant', 'client'])
      expect(within(card(role)).getByText('No one holds this role')).toBeInTheDocument();
  }, 60_000);

  it('says when only the most recent holders of a role are listed', async () => {
    const list = roleList({ admin: [adminAccount], client: [pat] });
    list.roles.find((r) => r.role === 'client')!.holder_count = 12_345;
    mockFetch({ ...base, 'GET /api/identity/roles': () => json(200, list) });
    renderAt('/admin/roles');
    await waitFor(() => expect(within(card('client')).getByText('12,345 holding')).toBeInTheDocument(), { timeout: 30_000 });
    expect(within(card('client')).getByTestId('role-holders-more')).toHaveTextContent('The 1 most recent of 12,345 are listed');
    expect(within(card('admin')).getByText('1 holding')).toBeInTheDocument();
    expect(within(card('admin')).queryByTestId('role-holders-more')).toBeNull();
  }, 60_000);

  it('grants a role to a person picked from the registered people', async () => {
    const { callsTo } = mockFetch({
      ...base,
      'GET /api/identity/roles': [
        () => json(200, roleList({ admin: [adminAccount] })),
        () => json(200, roleList({ admin: [adminAccount], staff: [pat] })),
      ],
      'POST /api/identity/roles/grants': () => json(201, { success: true, message: MESSAGES.roleGranted }),
    });
    renderAt('/admin/roles');
    const user = userEvent.setup();
    await waitFor(() => expect(within(card('staff')).getByText('No one holds this role')).toBeInTheDocument(), { timeout: 30_000 });
    const grant = screen.getByRole('button', { name: 'Grant role' });
    expect(grant).toBeDisabled();
    await user.click(screen.getByLabelText('Person'));
    await user.click(await screen.findByText('Pat Jones — pat@example.co.uk'));
    await user.click(screen.getByLabelText('Role'));
    await user.click((await screen.findAllByText('Staff', { selector: '.ant-select-item-option-content' }))[0]!);
    await waitFor(() => expect(grant).toBeEnabled());
    await user.click(grant);
    await waitFor(() => expect(callsTo('POST /api/identity/roles/grants')).toHaveLength(1));
    expect(callsTo('POST /api/identity/roles/grants')[0]!.body).toEqual({ email: 'pat@example.co.uk', role: 'staff' });
    expect(await screen.findByText(MESSAGES.roleGranted)).toBeInTheDocument();
    await waitFor(() => expect(within(card('staff')).getByText('Pat Jones (pat@example.co.uk)')).toBeInTheDocument());
  }, 60_000);

  it('revokes after confirmation; the last-admin refusal is shown as an error toast', async () => {
    const { callsTo } = mockFetch({
      ...base,
      'GET /api/identity/roles': [
        () => json(200, roleList({ admin: [adminAccount], manager: [pat] })),
        () => json(200, roleList({ admin: [adminAccount] })),
      ],
      [`DELETE /api/identity/roles/manager/people/${PAT_ID}`]: () => json(200, { success: true, message: MESSAGES.roleRevoked }),
      [`DELETE /api/identity/roles/admin-accounts/${ADMIN_ID}`]: () => apiError(409, 'CONFLICT', MESSAGES.lastAdminRefused),
    });
    renderAt('/admin/roles');
    const user = userEvent.setup();
    await waitFor(() => expect(within(card('manager')).getByText('Pat Jones (pat@example.co.uk)')).toBeInTheDocument(), {
      timeout: 30_000,
    });
    await user.click(within(card('manager')).getByText('Revoke', { selector: 'button span' }));
    expect(await screen.findByText('Revoke Manager from Pat Jones?')).toBeInTheDocument();
    expect(callsTo(`DELETE /api/identity/roles/manager/people/${PAT_ID}`)).toHaveLength(0);
    await user.click(screen.getByText('Revoke', { selector: '.ant-popconfirm button span' }));
    await waitFor(() => expect(callsTo(`DELETE /api/identity/roles/manager/people/${PAT_ID}`)).toHaveLength(1));
    expect(await screen.findByText(MESSAGES.roleRevoked)).toBeInTheDocument();
    await waitFor(() => expect(within(card('manager')).getByText('No one holds this role')).toBeInTheDocument());

    await user.click(within(card('admin')).getByText('Revoke', { selector: 'button span' }));
    expect(await screen.findByText('Deactivate the admin panel account alice?')).toBeInTheDocument();
    await user.click(await screen.findByText('Deactivate', { selector: '.ant-popconfirm button span' }));
    expect(await screen.findByText(MESSAGES.lastAdminRefused)).toBeInTheDocument();
    expect(within(card('admin')).getByText('alice')).toBeInTheDocument();
  }, 60_000);

  it("resets another admin panel account's two-factor sign-in after confirmation; never offered for one's own account", async () => {
    const self: RoleHolder = { ...adminAccount, id: alice.id, name: 'alice', username: 'alice' };
    const bob: RoleHolder = { ...adminAccount, name: 'bob', username: 'bob' };
    const RESET = `DELETE /api/identity/roles/admin-accounts/${ADMIN_ID}/two-factor`;
    const done = 'Two-factor sign-in turned off for this admin panel account.';
    const { callsTo } = mockFetch({
      ...base,
      'GET /api/identity/roles': () => json(200, roleList({ admin: [self, bob] })),
      [RESET]: () => json(200, { success: true, message: done }),
    });
    renderAt('/admin/roles');
    const user = userEvent.setup();
    await waitFor(() => expect(within(card('admin')).getByText('bob')).toBeInTheDocument(), { timeout: 30_000 });
    // One button: bob's row, not alice's own.
    const buttons = within(card('admin')).getAllByRole('button', { name: 'Reset two-factor' });
    expect(buttons).toHaveLength(1);
    expect(buttons[0]!.closest('tr')).toHaveTextContent('bob');
    await user.click(buttons[0]!);
    expect(await screen.findByText('Reset two-factor sign-in of bob?')).toBeInTheDocument();
    expect(callsTo(RESET)).toHaveLength(0);
    await user.click(screen.getByText('Reset', { selector: '.ant-popconfirm button span' }));
    await waitFor(() => expect(callsTo(RESET)).toHaveLength(1));
    expect(await screen.findByText(done)).toBeInTheDocument();
  }, 60_000);

  it("'Failed to load roles' when the server fails; a refusal says so", async () => {
    mockFetch({ ...base, 'GET /api/identity/roles': () => apiError(500, 'INTERNAL', MESSAGES.internalError) });
    const view = renderAt('/admin/roles');
    expect((await screen.findAllByText(MESSAGES.failedToLoadRoles, {}, { timeout: 30_000 })).length).toBeGreaterThanOrEqual(1);
    view.unmount();
    mockFetch({ ...base, 'GET /api/identity/roles': () => apiError(403, 'FORBIDDEN', MESSAGES.noAccessToArea) });
    renderAt('/admin/roles');
    expect(await screen.findByText(MESSAGES.noAccessToArea, {}, { timeout: 30_000 })).toBeInTheDocument();
  }, 60_000);
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const bob = { id: 'b1', username: 'bob', role: 'manager' } as const;

describe('Admin control panel', () => {
  it('greets the admin, shows the role and the four figures (monthly revenue from billing)', async () => {
    mockFetch({
      'GET /api/crm/stats': () =>
        json(200, {
          total_clients: 1234,
          active_clients: 900,
          monthly_revenue: 98765.5,
          active_monthly_revenue: 90000,
          active_plans: 900,
          team_members: 7,
          total_leads: 10,
          new_leads: 3,
        }),
      // Monthly revenue is billing's one figure (issue 22), not crm's sum of every client's fee.
      'GET /api/billing/revenue': () =>
        json(200, { monthly_revenue: 74000.25, active_subscriptions: 900, overdue_fees: 1200, overdue_subscriptions: 12 }),
      'GET /api/identity/admin/session': () => json(200, { success: true, user: bob, expires_at: '2026-03-05T18:00:00Z' }),
      'GET /api/identity/invitations': () => json(200, { invitations: [], smtp_configured: true }),
      'GET /api/identity/staff': () => json(200, { staff: [] }),
    });
    renderAt('/admin');
    // The first render compiles the lazy admin chunks (staff panel, crm, media): allow for a busy machine.
    expect(await screen.findByRole('heading', { name: 'Admin Control Panel' }, { timeout: 30_000 })).toBeInTheDocument();
    expect(screen.getByText('Welcome back, bob')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('manager');
    // By text, not role: role queries over the whole panel are slow under jsdom.
    const card = (title: string) => screen.getByText(title, { selector: 'h2' }).closest('.ant-card');
    await waitFor(() => expect(card('Total Clients')).toHaveTextContent('1,234'));
    expect(card('Total Clients')).toHaveTextContent('Registered businesses');
    expect(card('Team Members')).toHaveTextContent('7Active staff');
    await waitFor(() => expect(card('Monthly Revenue')).toHaveTextContent('£74,000.25Recurring income'));
    expect(card('Active Plans')).toHaveTextContent('900Paying clients');
    // The Staff Management tab (open first) is the real panel.
    expect((await screen.findByText(/Send Invitation/, {}, { timeout: 15_000 })).closest('button')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Admin Control Panel | Countinghouse'));
    // The first render compiles the lazy admin chunks, the staff panel included: slow on a busy machine.
  }, 60_000);

  it('has the five tabs and a finished Settings tab', async () => {
    mockFetch({ 'GET /api/identity/admin/session': () => json(200, { success: true, user: bob, expires_at: '2026-03-05T18:00:00Z' }) });
    renderAt('/admin');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Staff Management', 'Client Database', 'Client Files', 'AI Video', 'Settings']);
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Settings' }));
    for (const block of ['Platform Settings', 'Security & Access', 'Billing & Payments']) {
      expect(await screen.findByRole('heading', { name: block })).toBeInTheDocument();
    }
  });
});

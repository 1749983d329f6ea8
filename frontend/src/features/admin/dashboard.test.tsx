import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const bob = { id: 'b1', username: 'bob', role: 'manager' } as const;

describe('Admin control panel', () => {
  it('greets the admin, shows the role, and never shows invented figures', async () => {
    mockFetch({
      'GET /api/identity/admin/session': () => json(200, { success: true, user: bob, expires_at: '2026-03-05T18:00:00Z' }),
      'GET /api/identity/invitations': () => json(200, { invitations: [], smtp_configured: true }),
      'GET /api/identity/staff': () => json(200, { staff: [] }),
    });
    renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Control Panel' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back, bob')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('manager');
    for (const title of ['Total Clients', 'Team Members', 'Monthly Revenue', 'Active Plans']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(main.textContent).not.toMatch(/£|\d{2,}/); // no money, no counts
    expect(screen.getAllByText('Not built yet').length).toBeGreaterThanOrEqual(4);
    // The Staff Management tab (open first) is the real panel.
    expect(await screen.findByRole('button', { name: /Send Invitation/ })).toBeInTheDocument();
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

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const CONFIG = 'GET /api/public/config';

describe('Public layout', () => {
  it('shows the practice name, the nav links and the contact details from the config', async () => {
    mockFetch({ [CONFIG]: () => json(200, PUBLIC_CONFIG) });
    renderAt('/');
    const header = await screen.findByRole('banner');
    // The home page is in the entry chunk: the frame shows before the config arrives.
    expect(await within(header).findByRole('link', { name: 'Ledger & Co Accountants' })).toHaveAttribute('href', '/');
    const nav = within(header).getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Who we help', '/who-we-help'],
      ['Services', '/services'],
      ['Resources', '/resources'],
      ['About us', '/about-us'],
      ['Blog', '/blog'],
      ['Packages', '/package-selection'],
      ['Log in', '/login'],
    ]);
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: '020 7946 0000' })).toHaveAttribute('href', 'tel:02079460000');
    expect(within(footer).getByRole('link', { name: 'hello@ledger.example' })).toHaveAttribute('href', 'mailto:hello@ledger.example');
    expect(await within(screen.getByRole('main')).findByRole('heading', { level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Home | Countinghouse'));
  });

  it('shows the maintenance page when the gateway says so', async () => {
    mockFetch({ [CONFIG]: () => json(200, { ...PUBLIC_CONFIG, maintenance: true }) });
    renderAt('/services');
    expect(await screen.findByRole('heading', { name: MESSAGES.maintenanceHeading })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Services' })).not.toBeInTheDocument();
  });

  it('gives the practice phone and e-mail under the maintenance footer note', async () => {
    mockFetch({ [CONFIG]: () => json(200, { ...PUBLIC_CONFIG, maintenance: true }) });
    renderAt('/package-selection');
    await screen.findByRole('heading', { name: MESSAGES.maintenanceHeading });
    expect(screen.getByRole('link', { name: '020 7946 0000' })).toHaveAttribute('href', 'tel:02079460000');
    expect(screen.getByRole('link', { name: 'hello@ledger.example' })).toHaveAttribute('href', 'mailto:hello@ledger.example');
  });

  it('keeps the staff sign-in open during maintenance', async () => {
    mockFetch({ [CONFIG]: () => json(200, { ...PUBLIC_CONFIG, maintenance: true }) });
    renderAt('/staff-login');
    expect(await screen.findByLabelText(/email/i)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.maintenanceHeading)).not.toBeInTheDocument();
  });

  it('treats a failing config call as "not in maintenance"', async () => {
    mockFetch({ [CONFIG]: () => apiError(500, 'INTERNAL', 'boom') });
    renderAt('/blog');
    expect(await screen.findByRole('heading', { level: 1, name: 'Blog' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.maintenanceHeading)).not.toBeInTheDocument();
  });
});

describe('/test-login', () => {
  it('offers the three buttons in demo mode', async () => {
    mockFetch({ [CONFIG]: () => json(200, { ...PUBLIC_CONFIG, demoMode: true }) });
    renderAt('/test-login');
    for (const name of ['Sign up', 'Log in', 'User management']) {
      expect(await screen.findByRole('button', { name })).toBeInTheDocument();
    }
  });

  it('does not exist outside demo mode', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ [CONFIG]: () => json(200, PUBLIC_CONFIG) });
    renderAt('/test-login');
    expect(await screen.findByText(MESSAGES.notFoundText)).toBeInTheDocument();
  });
});

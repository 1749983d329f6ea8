import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime, INTEGRATION_TEXTS, MESSAGES, type IntegrationCard, type IntegrationList } from '@countinghouse/proto';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { IntegrationsCallbackPage, IntegrationsPage } from './IntegrationsPage';

const LIST = 'GET /api/integrations';
const routes = [
  { path: '/integrations', element: <IntegrationsPage /> },
  { path: '/integrations/xero/callback', element: <IntegrationsCallbackPage /> },
];

function card(over: Partial<IntegrationCard> & Pick<IntegrationCard, 'integration_type'>): IntegrationCard {
  return {
    id: null,
    client_id: 'c1',
    is_active: false,
    integration_data: { company_name: null },
    last_sync_at: null,
    needs_reconnect: false,
    configured: true,
    sync: null,
    ...over,
  };
}

const NONE: IntegrationList = {
  client: { id: 'c1', company_name: 'Acme Bakery Ltd' },
  integrations: [card({ integration_type: 'xero' }), card({ integration_type: 'quickbooks' })],
};
const XERO_CONNECTED: IntegrationList = {
  client: NONE.client,
  integrations: [
    card({
      integration_type: 'xero',
      id: '3f0b1c52-0d7e-4b55-9d8f-0a4b4b1d2c11',
      is_active: true,
      integration_data: {
        company_name: 'Acme Bakery Ltd',
        summary: {
          currency: 'GBP',
          receivables: 1600.75,
          payables: 500,
          overdue_receivables: 1200.5,
          overdue_payables: 450,
          contacts: 3,
          invoices: 3,
          bills: 2,
        },
      },
      last_sync_at: '2026-03-05T14:30:00.000Z',
    }),
    card({ integration_type: 'quickbooks' }),
  ],
};

const cardOf = (provider: string) => screen.findByTestId(`integration-${provider}`);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Integrations page', () => {
  it('shows one card per provider: badge, organisation or N/A, Last Synced or Never, and the three buttons', async () => {
    mockFetch({ [LIST]: () => json(200, XERO_CONNECTED) });
    renderAt('/integrations', { routes });
    const xero = await cardOf('xero');
    expect(within(xero).getByText('Connected')).toBeInTheDocument();
    expect(within(xero).getByText('Acme Bakery Ltd')).toBeInTheDocument();
    expect(within(xero).getByText('05 Mar 2026, 14:30')).toBeInTheDocument();
    expect(within(xero).getByText('£1,600.75')).toBeInTheDocument();
    for (const name of ['Sync Now', 'Disconnect', 'Connect']) expect(within(xero).getByRole('button', { name })).toBeEnabled();
    const qb = await cardOf('quickbooks');
    expect(within(qb).getByText('Not Connected')).toBeInTheDocument();
    expect(within(qb).getByText('N/A')).toBeInTheDocument();
    expect(within(qb).getByText('Never')).toBeInTheDocument();
    expect(within(qb).getByRole('button', { name: 'Sync Now' })).toBeDisabled();
    expect(within(qb).getByRole('button', { name: 'Disconnect' })).toBeDisabled();
    expect(within(qb).getByRole('button', { name: 'Connect' })).toBeEnabled();
  });

  it('?xero=connected: the success text, the query cleared without a new history entry, the list reloaded', async () => {
    const { callsTo } = mockFetch({ [LIST]: [() => json(200, NONE), () => json(200, XERO_CONNECTED)] });
    const { router } = renderAt('/integrations?xero=connected', { routes });
    expect(await screen.findByText(MESSAGES.connectedXero)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(callsTo(LIST).length).toBeGreaterThanOrEqual(2));
    expect(await within(await cardOf('xero')).findByText('Connected')).toBeInTheDocument();
  });

  it('?xero=error says the connection failed', async () => {
    mockFetch({ [LIST]: () => json(200, NONE) });
    renderAt('/integrations?xero=error', { routes });
    expect(await screen.findByText(MESSAGES.failedToConnectXero)).toBeInTheDocument();
  });

  it('?quickbooks=connected says so', async () => {
    mockFetch({ [LIST]: () => json(200, NONE) });
    renderAt('/integrations?quickbooks=connected', { routes });
    expect(await screen.findByText(MESSAGES.connectedQuickBooks)).toBeInTheDocument();
  });

  it('a provider not configured on this server: Connect is disabled and the card says why', async () => {
    mockFetch({
      [LIST]: () =>
        json(200, {
          ...NONE,
          integrations: [card({ integration_type: 'xero', configured: false }), card({ integration_type: 'quickbooks' })],
        }),
    });
    renderAt('/integrations', { routes });
    const xero = await cardOf('xero');
    expect(within(xero).getByRole('button', { name: 'Connect' })).toBeDisabled();
    expect(within(xero).getByText(/Xero is not configured on this server/)).toBeInTheDocument();
  });

  it('Connect navigates to the authUrl; a failing start says so', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, replace: vi.fn() });
    mockFetch({
      [LIST]: () => json(200, NONE),
      'POST /api/integrations/xero/connect': () => json(200, { authUrl: 'https://login.xero.com/identity/connect/authorize?state=s' }),
      'POST /api/integrations/quickbooks/connect': () => apiError(500, 'INTERNAL', 'Something went wrong on our side. Please try again.'),
    });
    renderAt('/integrations', { routes });
    const user = userEvent.setup();
    await user.click(within(await cardOf('xero')).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://login.xero.com/identity/connect/authorize?state=s'));
    await user.click(within(await cardOf('quickbooks')).getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(MESSAGES.failedToStartQuickBooks)).toBeInTheDocument();
  });

  it('Sync Now shows progress while the job runs, then the success text', async () => {
    mockFetch({
      [LIST]: () => json(200, XERO_CONNECTED),
      'POST /api/integrations/xero/sync': () => json(202, { jobId: 'job-1' }),
      'GET /api/integrations/jobs/job-1': [
        () => json(200, { id: 'job-1', integration_type: 'xero', state: 'active', progress: 45 }),
        () => json(200, { id: 'job-1', integration_type: 'xero', state: 'completed', progress: 100 }),
      ],
    });
    renderAt('/integrations', { routes });
    const user = userEvent.setup();
    await user.click(within(await cardOf('xero')).getByRole('button', { name: 'Sync Now' }));
    expect(await screen.findByLabelText('Sync progress')).toBeInTheDocument();
    expect(await screen.findByText('Successfully synced Xero data', {}, { timeout: 4000 })).toBeInTheDocument();
  });

  it('a sync waiting for Xero’s limit says it is queued and when it runs next, then completes', async () => {
    const retryAt = '2026-11-23T14:05:07.000Z';
    const waiting = {
      id: 'job-3',
      integration_type: 'xero',
      state: 'delayed',
      progress: 5,
      retry_at: retryAt,
      notice: INTEGRATION_TEXTS.syncWaiting('xero'),
    };
    mockFetch({
      [LIST]: () => json(200, XERO_CONNECTED),
      'POST /api/integrations/xero/sync': () => json(202, { jobId: 'job-3' }),
      'GET /api/integrations/jobs/job-3': [
        () => json(200, waiting),
        () => json(200, waiting),
        () => json(200, { id: 'job-3', integration_type: 'xero', state: 'completed', progress: 100 }),
      ],
    });
    renderAt('/integrations', { routes });
    await userEvent.setup().click(within(await cardOf('xero')).getByRole('button', { name: 'Sync Now' }));
    expect(await screen.findByText(INTEGRATION_TEXTS.syncWaiting('xero'))).toBeInTheDocument();
    expect(screen.getByText(`Next try: ${formatDateTime(retryAt)}`)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.failedToSyncData)).not.toBeInTheDocument();
    expect(await screen.findByText('Successfully synced Xero data', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('a failed sync says Failed to sync data', async () => {
    mockFetch({
      [LIST]: () => json(200, XERO_CONNECTED),
      'POST /api/integrations/xero/sync': () => json(202, { jobId: 'job-2' }),
      'GET /api/integrations/jobs/job-2': () => json(200, { id: 'job-2', integration_type: 'xero', state: 'failed', progress: 5 }),
    });
    renderAt('/integrations', { routes });
    await userEvent.setup().click(within(await cardOf('xero')).getByRole('button', { name: 'Sync Now' }));
    expect(await screen.findByText(MESSAGES.failedToSyncData)).toBeInTheDocument();
  });

  it('Disconnect: Integration disconnected, or Failed to disconnect integration', async () => {
    mockFetch({
      [LIST]: () => json(200, XERO_CONNECTED),
      'POST /api/integrations/xero/disconnect': [
        () => apiError(500, 'INTERNAL', 'Something went wrong on our side. Please try again.'),
        () => json(200, { success: true, message: MESSAGES.integrationDisconnected }),
      ],
    });
    renderAt('/integrations', { routes });
    const user = userEvent.setup();
    const button = within(await cardOf('xero')).getByRole('button', { name: 'Disconnect' });
    await user.click(button);
    expect(await screen.findByText(MESSAGES.failedToDisconnectIntegration)).toBeInTheDocument();
    await user.click(button);
    expect(await screen.findByText(MESSAGES.integrationDisconnected)).toBeInTheDocument();
  });

  it('a list that cannot load says Failed to load integrations', async () => {
    mockFetch({ [LIST]: () => apiError(500, 'INTERNAL', 'Something went wrong on our side. Please try again.') });
    renderAt('/integrations', { routes });
    expect((await screen.findAllByText(MESSAGES.failedToLoadIntegrations)).length).toBeGreaterThan(0);
  });

  it('/integrations/xero/callback hands code and state to the API callback', async () => {
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, search: '?code=abc&state=xyz', assign: vi.fn(), replace });
    mockFetch({});
    renderAt('/integrations/xero/callback?code=abc&state=xyz', { routes });
    expect(await screen.findByRole('status')).toBeInTheDocument();
    await waitFor(() => expect(replace).toHaveBeenCalledWith('/api/integrations/xero/callback?code=abc&state=xyz'));
  });
});

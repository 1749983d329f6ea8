import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime, SETTINGS_MESSAGES, type PracticeSettings, type SettingChangeList } from '@countinghouse/proto';
import { apiError, json, mockFetch, type Call } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { SettingsPage } from './SettingsPage';

const GET = 'GET /api/settings';
const PATCH = 'PATCH /api/settings';
const CHANGES = 'GET /api/settings/changes';
const routes = [{ path: '/admin/settings', element: <SettingsPage /> }];

const SETTINGS: PracticeSettings = {
  name: 'Ledger & Co Accountants',
  phone: '020 7946 0000',
  email: 'hello@ledger.example',
  maintenance: false,
  version: 3,
  updated_at: '2026-03-05T14:30:00.000Z',
  updated_by: 'practice.admin',
};
const HISTORY: SettingChangeList = {
  changes: [
    {
      id: 2,
      field: 'phone',
      old_value: '020 7946 0321',
      new_value: '020 7946 0000',
      actor_id: 'a1',
      actor_name: 'practice.admin',
      changed_at: '2026-03-05T14:30:00.000Z',
    },
    {
      id: 1,
      field: 'maintenance',
      old_value: 'off',
      new_value: 'on',
      actor_id: 'a1',
      actor_name: 'practice.admin',
      changed_at: '2026-03-04T09:05:00.000Z',
    },
  ],
  total: 2,
  page: 1,
  page_size: 10,
};

function patchReply(call: Call, message: string = SETTINGS_MESSAGES.saved) {
  const body = call.body as Partial<PracticeSettings>;
  return json(200, { settings: { ...SETTINGS, ...body, version: 4 }, changed: Object.keys(body), message });
}

const field = (label: string) => screen.findByLabelText(label);
const saveButton = () => screen.getByRole('button', { name: 'Save' });

describe('Company Settings', () => {
  it('shows the saved details; Save stays disabled until something changes, then sends only what changed', async () => {
    const fetch = mockFetch({ [GET]: () => json(200, SETTINGS), [CHANGES]: () => json(200, HISTORY), [PATCH]: (c) => patchReply(c) });
    renderAt('/admin/settings', { routes });
    expect(await screen.findByRole('heading', { level: 1, name: 'Company Settings' })).toBeInTheDocument();
    const phone = await field('Contact phone');
    await waitFor(() => expect(phone).toHaveValue('020 7946 0000'));
    expect(await field('Practice name')).toHaveValue('Ledger & Co Accountants');
    expect(await field('Contact e-mail')).toHaveValue('hello@ledger.example');
    expect(saveButton()).toBeDisabled();

    const user = userEvent.setup();
    await user.clear(phone);
    await user.type(phone, '+44 (0)161 496 0000');
    expect(saveButton()).toBeEnabled();
    // Enter submits: the form is keyboard-friendly.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(fetch.callsTo(PATCH)).toHaveLength(1));
    expect(fetch.callsTo(PATCH)[0]!.body).toEqual({ phone: '+44 (0)161 496 0000' });
    expect(await screen.findByText(SETTINGS_MESSAGES.saved)).toBeInTheDocument();
  });

  it('explains a bad phone or e-mail next to the field and sends nothing', async () => {
    const fetch = mockFetch({ [GET]: () => json(200, SETTINGS), [CHANGES]: () => json(200, HISTORY), [PATCH]: (c) => patchReply(c) });
    renderAt('/admin/settings', { routes });
    const user = userEvent.setup();
    const phone = await field('Contact phone');
    await waitFor(() => expect(phone).toHaveValue('020 7946 0000'));
    await user.clear(phone);
    await user.type(phone, '020-7946');
    const email = await field('Contact e-mail');
    await user.clear(email);
    await user.type(email, 'not-an-email');
    await user.click(saveButton());
    expect(await screen.findByText(SETTINGS_MESSAGES.phoneInvalid)).toBeInTheDocument();
    expect(await screen.findByText(SETTINGS_MESSAGES.emailInvalid)).toBeInTheDocument();
    const name = await field('Practice name');
    await user.clear(name);
    await user.tab();
    expect(await screen.findByText(SETTINGS_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(fetch.callsTo(PATCH)).toHaveLength(0);
  });

  it("puts the server's refusal on the field", async () => {
    mockFetch({
      [GET]: () => json(200, SETTINGS),
      [CHANGES]: () => json(200, HISTORY),
      [PATCH]: () =>
        json(400, {
          error: {
            code: 'VALIDATION_FAILED',
            message: SETTINGS_MESSAGES.emailInvalid,
            details: [{ path: 'email', message: SETTINGS_MESSAGES.emailInvalid }],
          },
        }),
    });
    renderAt('/admin/settings', { routes });
    const user = userEvent.setup();
    const email = await field('Contact e-mail');
    await waitFor(() => expect(email).toHaveValue('hello@ledger.example'));
    await user.clear(email);
    await user.type(email, 'hello@ledger.co.uk');
    await user.click(saveButton());
    // Once beside the field and once in the toast.
    await waitFor(() => expect(screen.getAllByText(SETTINGS_MESSAGES.emailInvalid).length).toBeGreaterThanOrEqual(2));
  });

  it('asks before switching maintenance on; Cancel changes nothing, Turn on sends it', async () => {
    let stored = SETTINGS;
    const fetch = mockFetch({
      [GET]: () => json(200, stored),
      [CHANGES]: () => json(200, HISTORY),
      [PATCH]: (c) => {
        stored = { ...stored, maintenance: true, version: 4 };
        return patchReply(c, SETTINGS_MESSAGES.maintenanceOn);
      },
    });
    renderAt('/admin/settings', { routes });
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: 'Maintenance mode' });
    expect(toggle).not.toBeChecked();

    await user.click(toggle);
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText('Turn maintenance mode on?').length).toBeGreaterThan(0);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetch.callsTo(PATCH)).toHaveLength(0);
    expect(toggle).not.toBeChecked();

    await user.click(toggle);
    // The cancelled dialog may still be animating out: take the newest.
    dialog = (await screen.findAllByRole('dialog')).at(-1)!;
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(fetch.callsTo(PATCH)).toHaveLength(1));
    expect(fetch.callsTo(PATCH)[0]!.body).toEqual({ maintenance: true });
    expect(await screen.findByText(SETTINGS_MESSAGES.maintenanceOn)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Maintenance mode' })).toBeChecked());
  });

  it('lists the change history: when (en-GB), who, which setting, old → new', async () => {
    mockFetch({ [GET]: () => json(200, SETTINGS), [CHANGES]: () => json(200, HISTORY) });
    renderAt('/admin/settings', { routes });
    const rows = await screen.findAllByRole('row');
    await waitFor(() => expect(screen.getByText('Contact phone', { selector: 'td' })).toBeInTheDocument());
    const phoneRow = screen.getByText('Contact phone', { selector: 'td' }).closest('tr')!;
    expect(within(phoneRow).getByText(formatDateTime('2026-03-05T14:30:00.000Z'))).toBeInTheDocument();
    expect(formatDateTime('2026-03-05T14:30:00.000Z')).toMatch(/^05 Mar 2026, \d\d:30$/);
    expect(within(phoneRow).getByText('practice.admin')).toBeInTheDocument();
    expect(within(phoneRow).getByText('020 7946 0321')).toBeInTheDocument();
    expect(within(phoneRow).getByText('020 7946 0000')).toBeInTheDocument();
    const maintenanceRow = screen.getByText('Maintenance mode', { selector: 'td' }).closest('tr')!;
    expect(within(maintenanceRow).getByText('off')).toBeInTheDocument();
    expect(within(maintenanceRow).getByText('on')).toBeInTheDocument();
    expect(rows.length).toBeGreaterThan(0);
  });

  it('says so when the settings cannot be loaded', async () => {
    mockFetch({ [GET]: () => apiError(500, 'INTERNAL', 'boom'), [CHANGES]: () => json(200, HISTORY) });
    renderAt('/admin/settings', { routes });
    expect((await screen.findAllByText(SETTINGS_MESSAGES.failedToLoad)).length).toBeGreaterThan(0);
  });
});

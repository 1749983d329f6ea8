import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BILLING_ROUTES, CLIENT_PLACEHOLDERS, CLIENT_PROFILE_MESSAGES as M, CRM_ROUTES, type Client, type Me } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG, type Call } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const ME_CLIENT: Me = {
  user: {
    user_id: '00000000-0000-4000-8000-000000000009',
    email: 'grace@example.co.uk',
    first_name: 'Grace',
    last_name: null,
    company_name: null,
    role: 'client',
    created_at: '2026-11-01T10:00:00Z',
  },
  roles: ['client'],
  staff_role: null,
  session_expires_at: '2026-12-01T10:00:00Z',
};
const NEW_CLIENT: Client = {
  id: '00000000-0000-4000-8000-0000000000c1',
  user_id: ME_CLIENT.user.user_id,
  company_name: CLIENT_PLACEHOLDERS.companyName,
  contact_name: CLIENT_PLACEHOLDERS.contactName,
  contact_email: 'grace@example.co.uk',
  contact_phone: null,
  business_type: 'limited',
  package_name: 'Growth',
  monthly_fee: 100,
  subscription_status: 'active',
  next_billing_date: '2026-12-22',
  registration_date: '2026-11-22T10:00:00Z',
  onboarding_completed: false,
  employees_count: 0,
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z',
  assigned_accountant_id: null,
  assigned_accountant_name: null,
};
const SUBSCRIBED = {
  subscribed: true,
  package_name: 'Growth',
  subscription_end: '2026-12-22T00:00:00Z',
  status: 'active',
  monthly_fee: 100,
  provider: 'test',
};
const PATCH_MINE = `PATCH ${CRM_ROUTES.myClient}`;

function mockDashboard(patch: (call: Call) => Response) {
  let record = NEW_CLIENT;
  return mockFetch({
    'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
    'GET /api/identity/auth/me': () => json(200, ME_CLIENT),
    [`GET ${BILLING_ROUTES.subscription}`]: () => json(200, SUBSCRIBED),
    [`GET ${CRM_ROUTES.myClient}`]: () => json(200, record),
    [PATCH_MINE]: (call) => {
      const r = patch(call);
      if (r.status === 200) record = { ...record, ...(call.body as object), onboarding_completed: true };
      return r.status === 200 ? json(200, record) : r;
    },
  });
}

/** antd's modal under jsdom: the open dialog whose title is the profile's. */
const findProfileDialog = () =>
  waitFor(() => {
    const match = screen.getAllByRole('dialog').find((d) => d.querySelector('.ant-modal-title')?.textContent === 'Your business profile');
    if (!match) throw new Error('the business profile dialog is not open');
    return match;
  });
const checklistItem = async () => (await screen.findByText('Complete your business profile')).closest('li')!;

describe('Business profile on the client dashboard', () => {
  it('starts with empty fields instead of the placeholders, saves the profile and ticks the checklist', async () => {
    const { callsTo } = mockDashboard(() => json(200, {}));
    renderAt('/client-dashboard');
    const item = await checklistItem();
    expect(within(item).getByText('To do')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(await within(item).findByRole('button', { name: 'Complete business profile' }));
    const dialog = await findProfileDialog();
    expect(within(dialog).getByLabelText('Business name')).toHaveValue('');
    expect(within(dialog).getByLabelText('Contact name')).toHaveValue('');

    await user.type(within(dialog).getByLabelText('Business name'), 'Grace Growth Ltd');
    await user.type(within(dialog).getByLabelText('Contact name'), 'Grace Hopper');
    await user.type(within(dialog).getByLabelText('Phone'), '020 7946 0123');
    const employees = within(dialog).getByLabelText('Number of employees');
    await user.clear(employees);
    await user.type(employees, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));

    await waitFor(() => expect(callsTo(PATCH_MINE)).toHaveLength(1));
    expect(callsTo(PATCH_MINE)[0]!.body).toEqual({
      company_name: 'Grace Growth Ltd',
      contact_name: 'Grace Hopper',
      contact_phone: '020 7946 0123',
      business_type: 'limited',
      employees_count: 3,
    });
    expect(await screen.findByText(M.saved)).toBeInTheDocument();
    await waitFor(() => expect(within(item).getByText('Done')).toBeInTheDocument());
    expect(
      within(item).getByText(/Grace Growth Ltd, limited company, 3 employees; contact Grace Hopper, 020 7946 0123/),
    ).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Edit business profile' })).toBeInTheDocument();
  });

  it('checks the fields with the same messages as the server and sends nothing while they are wrong', async () => {
    const { callsTo } = mockDashboard(() => json(200, {}));
    renderAt('/client-dashboard');
    const user = userEvent.setup();
    await user.click(await within(await checklistItem()).findByRole('button', { name: 'Complete business profile' }));
    const dialog = await findProfileDialog();
    await user.type(within(dialog).getByLabelText('Phone'), 'call me');
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    expect(await within(dialog).findByText(M.companyNameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(M.contactNameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(M.phoneInvalid)).toBeInTheDocument();
    expect(callsTo(PATCH_MINE)).toHaveLength(0);
  });

  it("shows the server's refusal on its field and keeps the dialog open", async () => {
    mockDashboard(() =>
      json(400, {
        error: {
          code: 'VALIDATION_FAILED',
          message: M.companyNamePlaceholder,
          details: [{ path: 'company_name', message: M.companyNamePlaceholder }],
        },
      }),
    );
    renderAt('/client-dashboard');
    const user = userEvent.setup();
    await user.click(await within(await checklistItem()).findByRole('button', { name: 'Complete business profile' }));
    const dialog = await findProfileDialog();
    await user.type(within(dialog).getByLabelText('Business name'), 'Acme Ltd');
    await user.type(within(dialog).getByLabelText('Contact name'), 'Ann');
    await user.type(within(dialog).getByLabelText('Phone'), '07700 900123');
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    expect(await within(dialog).findByText(M.companyNamePlaceholder)).toBeInTheDocument();
    expect(await findProfileDialog()).toBeInTheDocument();
    expect(within(await checklistItem()).getByText('To do')).toBeInTheDocument();
  });

  it('a network failure says so in a toast', async () => {
    mockDashboard(() => apiError(500, 'INTERNAL', 'Something went wrong on our side.'));
    renderAt('/client-dashboard');
    const user = userEvent.setup();
    await user.click(await within(await checklistItem()).findByRole('button', { name: 'Complete business profile' }));
    const dialog = await findProfileDialog();
    await user.type(within(dialog).getByLabelText('Business name'), 'Acme Ltd');
    await user.type(within(dialog).getByLabelText('Contact name'), 'Ann');
    await user.type(within(dialog).getByLabelText('Phone'), '07700 900123');
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Something went wrong on our side.')).toBeInTheDocument();
  });
});

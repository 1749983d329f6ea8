import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ACSP_MESSAGES,
  type AcspSettings,
  type AcspVerification,
  type AmlFile,
  type IdentityPerson,
  type Person,
  type Role,
} from '@countinghouse/proto';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { findDialog } from '../crm/test/fixtures';
import { AmlFileView } from '../aml/AmlWorkspace';
import { AcspVerificationsCard } from './AcspParts';
import { IdentityVerificationPage } from './IdentityVerificationPage';

const CLIENT = 'c1';
const LIST = 'GET /api/deadlines/identity-verification';
const SETTINGS = '/api/aml/acsp-settings';
const RECORDS = `/api/aml/clients/${CLIENT}/identity-verifications`;
const today = new Date().toISOString().slice(0, 10);

const asRole = (role: Role) => ({ adminSession: { user: { id: 'u1', username: 'mo', role }, ended: null } });

const idvPerson: IdentityPerson = {
  client_id: CLIENT,
  client_name: 'Acme Widgets Ltd',
  assigned_accountant_id: null,
  person_key: 'officer:director:SPROCKET, Diana',
  name: 'SPROCKET, Diana',
  person_kind: 'director',
  status: 'overdue',
  verified_on: null,
  verified_by: null,
  verified_source: null,
  due_on: '2026-09-01',
  due_source: 'companies_house',
  status_text: 'overdue since 1 Sep 2026',
};

const amlPerson = (p: Partial<Person>): Person => ({
  id: 'p-1',
  name: 'SPROCKET, Diana',
  date_of_birth: null,
  address: '1 High Street, London',
  role: 'director',
  ownership_band: 'none',
  source: 'companies_house',
  ceased_on: null,
  evidence: [],
  ...p,
});

const amlFile: AmlFile = {
  client_id: CLIENT,
  client_name: 'Acme Widgets Ltd',
  business_type: 'limited',
  subscription_status: 'active',
  company_number: '09876543',
  status: 'in_progress',
  outstanding: true,
  approved_version: null,
  current: {
    version: 1,
    state: 'draft',
    people: [
      amlPerson({ id: 'p-0', name: 'LEVER, Edward', evidence: [] }),
      amlPerson({
        evidence: [
          {
            id: 'e-1',
            document_id: 'doc-passport',
            filename: 'passport.pdf',
            method: 'video',
            checked_on: '2026-11-01',
            checked_by_id: 'u1',
            checked_by_name: 'Mo Manager',
            added_at: '2026-11-01T10:00:00Z',
          },
          {
            id: 'e-2',
            document_id: 'doc-licence',
            filename: 'licence.jpg',
            method: 'video',
            checked_on: '2026-11-01',
            checked_by_id: 'u1',
            checked_by_name: 'Mo Manager',
            added_at: '2026-11-01T10:00:00Z',
          },
        ],
      }),
    ],
    risk_answers: null,
    risk: null,
    created_at: '2026-11-01T10:00:00Z',
    created_by_name: 'Mo Manager',
    approved_at: null,
    approved_by_name: null,
    approval_note: null,
    next_review_on: null,
  },
  versions: [{ version: 1, state: 'draft', approved_at: null }],
  retention: { relationship_ended_on: null, keep_until: null, deletable: false, reason: 'Kept while the client is current' },
  can: { edit: true, approve: false, delete: false },
  audit: [],
};

const settings = (s: Partial<AcspSettings> = {}): AcspSettings => ({
  acsp_number: null,
  aml_supervisor: null,
  updated_at: null,
  updated_by_name: null,
  ...s,
});

const record: AcspVerification = {
  id: '11111111-1111-4111-8111-111111111111',
  client_id: CLIENT,
  person_key: 'officer:director:SPROCKET, Diana',
  person_name: 'SPROCKET, Diana',
  personal_code: 'AB12CD34EF5',
  acsp_number: 'ACSP-123',
  aml_supervisor: 'ICAEW',
  verified_on: '2026-11-20',
  evidence: [{ document_id: 'doc-passport', filename: 'passport.pdf' }],
  recorded_by_name: 'Mo Manager',
  recorded_at: '2026-11-20T10:00:00Z',
  keep_until: '2033-11-20',
};

const common = {
  'GET /api/crm/team-members': () => json(200, { members: [] }),
  'GET /api/crm/clients': () => json(200, { clients: [], total: 0, page: 1, page_size: 20 }),
  [LIST]: () => json(200, { people: [idvPerson], total: 1, total_capped: false, page: 1, page_size: 50, today: '2026-11-26' }),
};
const routes = [{ path: '/admin/identity-verification', element: <IdentityVerificationPage /> }];

describe('The practice as an ACSP (issue #30)', { timeout: 60_000 }, () => {
  it('a manager saves the ACSP number and AML supervisor on the identity verification page', async () => {
    const { callsTo } = mockFetch({
      ...common,
      [`GET ${SETTINGS}`]: [
        () => json(200, settings()),
        () =>
          json(
            200,
            settings({ acsp_number: 'ACSP-123', aml_supervisor: 'ICAEW', updated_at: '2026-11-26T10:00:00Z', updated_by_name: 'Mo' }),
          ),
      ],
      [`PUT ${SETTINGS}`]: () =>
        json(200, { settings: settings({ acsp_number: 'ACSP-123', aml_supervisor: 'ICAEW' }), message: ACSP_MESSAGES.settingsSaved }),
    });
    renderAt('/admin/identity-verification', { routes, state: asRole('manager') });
    const user = userEvent.setup();
    const number = await screen.findByLabelText('ACSP number');
    await user.click(screen.getByRole('button', { name: 'Save ACSP settings' }));
    expect(await screen.findByText('Enter the ACSP number')).toBeInTheDocument();
    expect(callsTo(`PUT ${SETTINGS}`)).toHaveLength(0);
    await user.type(number, ' ACSP-123 ');
    await user.type(screen.getByLabelText('AML supervisor'), 'ICAEW');
    await user.click(screen.getByRole('button', { name: 'Save ACSP settings' }));
    await waitFor(() => expect(callsTo(`PUT ${SETTINGS}`)).toHaveLength(1));
    expect(callsTo(`PUT ${SETTINGS}`)[0]!.body).toEqual({ acsp_number: 'ACSP-123', aml_supervisor: 'ICAEW' });
    expect(await screen.findByText(/Last saved .* by Mo/)).toBeInTheDocument();
  });

  it('a member of staff sees neither the settings nor "Record verification"', async () => {
    mockFetch(common);
    renderAt('/admin/identity-verification', { routes, state: asRole('staff') });
    expect(await screen.findByText('SPROCKET, Diana')).toBeInTheDocument();
    expect(screen.queryByLabelText('ACSP number')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Record verification/ })).not.toBeInTheDocument();
  });

  it('records a verification from the view: person from the AML file, code checked, evidence from their documents', async () => {
    const { callsTo } = mockFetch({
      ...common,
      [`GET ${SETTINGS}`]: () => json(200, settings({ acsp_number: 'ACSP-123', aml_supervisor: 'ICAEW' })),
      [`GET /api/aml/clients/${CLIENT}`]: () => json(200, amlFile),
      [`POST ${RECORDS}`]: () => json(201, { record, message: ACSP_MESSAGES.recorded }),
    });
    renderAt('/admin/identity-verification', { routes, state: asRole('manager') });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Record verification of SPROCKET, Diana' }));
    const dialog = await findDialog('Record verification: Acme Widgets Ltd');
    // The row's person is chosen already (matched to the AML file by name), with their two documents offered.
    expect(await within(dialog).findByLabelText(/passport\.pdf/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/licence\.jpg/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Date verified')).toHaveValue(today);

    await user.type(within(dialog).getByLabelText('Personal code'), 'AB12-CD34');
    await user.click(within(dialog).getByRole('button', { name: 'Record verification' }));
    expect(await within(dialog).findByText(ACSP_MESSAGES.personalCodeFormat)).toBeInTheDocument();
    expect(await within(dialog).findByText('Choose at least one identity document')).toBeInTheDocument();
    expect(callsTo(`POST ${RECORDS}`)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Personal code'), 'ef5');
    await user.click(within(dialog).getByLabelText(/passport\.pdf/));
    await user.click(within(dialog).getByRole('button', { name: 'Record verification' }));
    await waitFor(() => expect(callsTo(`POST ${RECORDS}`)).toHaveLength(1));
    expect(callsTo(`POST ${RECORDS}`)[0]!.body).toEqual({
      person_key: 'p-1',
      personal_code: 'AB12CD34EF5',
      verified_on: today,
      evidence_document_ids: ['doc-passport'],
    });
    expect(await screen.findByText(ACSP_MESSAGES.recorded)).toBeInTheDocument();
  });

  it("shows the server's refusal in the form", async () => {
    mockFetch({
      ...common,
      [`GET ${SETTINGS}`]: () => json(200, settings()),
      [`GET /api/aml/clients/${CLIENT}`]: () => json(200, amlFile),
      [`POST ${RECORDS}`]: () => apiError(400, 'VALIDATION_FAILED', ACSP_MESSAGES.settingsMissing),
    });
    renderAt('/admin/identity-verification', { routes, state: asRole('admin') });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Record verification of SPROCKET, Diana' }));
    const dialog = await findDialog('Record verification: Acme Widgets Ltd');
    await user.type(await within(dialog).findByLabelText('Personal code'), 'AB12CD34EF5');
    await user.click(within(dialog).getByLabelText(/licence\.jpg/));
    await user.click(within(dialog).getByRole('button', { name: 'Record verification' }));
    expect(await within(dialog).findByText(ACSP_MESSAGES.settingsMissing)).toBeInTheDocument();
  });

  it('lists the recorded verifications; Delete within the seven years shows the refusal', async () => {
    const refusal = ACSP_MESSAGES.retentionRunning('20 Nov 2033');
    const { callsTo } = mockFetch({
      [`GET ${RECORDS}`]: () => json(200, { items: [record] }),
      [`DELETE ${RECORDS}/${record.id}`]: () => apiError(409, 'CONFLICT', refusal),
    });
    renderAt('/admin/aml-acsp', {
      routes: [{ path: '/admin/aml-acsp', element: <AcspVerificationsCard clientId={CLIENT} /> }],
      state: asRole('admin'),
    });
    const user = userEvent.setup();
    const row = (await screen.findByText('AB12CD34EF5')).closest('tr')!;
    expect(row).toHaveTextContent('SPROCKET, Diana');
    expect(row).toHaveTextContent('20 Nov 2026');
    expect(row).toHaveTextContent('passport.pdf');
    expect(row).toHaveTextContent('20 Nov 2033');
    await user.click(within(row).getByRole('button', { name: 'Delete the verification of SPROCKET, Diana on 20 Nov 2026' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(callsTo(`DELETE ${RECORDS}/${record.id}`)).toHaveLength(1);
  });

  it('a manager may record but not delete', async () => {
    mockFetch({ [`GET ${RECORDS}`]: () => json(200, { items: [record] }) });
    renderAt('/admin/aml-acsp', {
      routes: [{ path: '/admin/aml-acsp', element: <AcspVerificationsCard clientId={CLIENT} /> }],
      state: asRole('manager'),
    });
    expect(await screen.findByText('AB12CD34EF5')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Record verification' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });
});

describe("The AML file's people show their identity verification (issue 30, item 6)", { timeout: 60_000 }, () => {
  const withKeys: AmlFile = {
    ...amlFile,
    current: {
      ...amlFile.current,
      people: [
        amlPerson({ id: 'p-1', person_key: 'officer:director:SPROCKET, Diana' }),
        amlPerson({ id: 'p-2', name: 'LEVER, Edward', source: 'manual', person_key: null }),
      ],
    },
  };
  const view = [{ path: '/admin/aml-file', element: <AmlFileView clientId={CLIENT} realm="admin" /> }];

  it("by the person's key on the register: Companies House's status, and 'Not on the register' for someone entered by hand", async () => {
    mockFetch({
      [`GET /api/aml/clients/${CLIENT}`]: () => json(200, withKeys),
      [LIST]: () => json(200, { people: [idvPerson], total: 1, total_capped: false, page: 1, page_size: 200, today: '2026-11-26' }),
    });
    renderAt('/admin/aml-file', { routes: view, state: asRole('admin') });
    const diana = (await screen.findAllByText('SPROCKET, Diana')).map((n) => n.closest('tr')).find(Boolean)!;
    expect(await within(diana).findByText('overdue since 1 Sep 2026')).toBeInTheDocument();
    const edward = screen.getAllByText('LEVER, Edward')[0]!.closest('tr')!;
    expect(within(edward).getByText('Not on the register')).toBeInTheDocument();
  });

  it('a role without the identity verification view, or a client with nobody on the register: no column', async () => {
    mockFetch({
      [`GET /api/aml/clients/${CLIENT}`]: () => json(200, withKeys),
      [LIST]: () => apiError(403, 'FORBIDDEN', 'Forbidden'),
    });
    renderAt('/admin/aml-file', { routes: view, state: asRole('admin') });
    expect((await screen.findAllByText('SPROCKET, Diana')).length).toBeGreaterThan(0);
    expect(screen.queryByText('ID verified (Companies House)')).not.toBeInTheDocument();
    expect(screen.queryByText('Not on the register')).not.toBeInTheDocument();
  });
});

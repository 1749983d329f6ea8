import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IdentityList, IdentityPerson } from '@countinghouse/proto';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { IdentityVerificationPage } from './IdentityVerificationPage';

const LIST = 'GET /api/deadlines/identity-verification';
const routes = [{ path: '/admin/identity-verification', element: <IdentityVerificationPage /> }];
const person = (p: Partial<IdentityPerson>): IdentityPerson => ({
  client_id: 'c1',
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
  ...p,
});
const list = (people: IdentityPerson[]): IdentityList => ({
  people,
  total: people.length,
  total_capped: false,
  page: 1,
  page_size: 50,
  today: '2026-11-23',
});
const common = {
  'GET /api/crm/team-members': () => json(200, { members: [] }),
  'GET /api/crm/clients': () => json(200, { clients: [], total: 0, page: 1, page_size: 20 }),
};

describe('Identity verification page', () => {
  it('lists people with their status texts; the status filter asks again', async () => {
    const fetch = mockFetch({
      ...common,
      [LIST]: [
        () =>
          json(
            200,
            list([
              person({}),
              person({
                person_key: 'psc:Mr Edward John Lever',
                name: 'Mr Edward John Lever',
                person_kind: 'psc',
                status: 'due',
                due_on: '2026-12-04',
                due_source: 'rule',
                status_text: 'due 4 Dec 2026 (14 days, derived)',
              }),
            ]),
          ),
        () => json(200, list([person({})])),
      ],
    });
    renderAt('/admin/identity-verification', { routes });
    expect(await screen.findByRole('heading', { level: 1, name: 'Identity verification' })).toBeInTheDocument();
    const row = (await screen.findByText('Mr Edward John Lever')).closest('tr')!;
    expect(within(row).getByText('due 4 Dec 2026 (14 days, derived)')).toBeInTheDocument();
    expect(within(row).getByText('Person with significant control')).toBeInTheDocument();
    expect(screen.getByText('overdue since 1 Sep 2026')).toBeInTheDocument();
    expect(screen.getByText('2 people')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByTitle('Overdue'));
    expect(await screen.findByText('1 person')).toBeInTheDocument();
    expect(fetch.callsTo(LIST)).toHaveLength(2);
  });

  it('says so when nobody is overdue', async () => {
    mockFetch({ ...common, [LIST]: () => json(200, list([])) });
    renderAt('/admin/identity-verification', { routes });
    expect(await screen.findByText('Nobody to show')).toBeInTheDocument();
  });
});

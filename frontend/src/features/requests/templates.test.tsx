import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RequestTemplate } from '@countinghouse/proto';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { findDialog } from '../crm/test/fixtures';
import { RequestsWorkspace } from './RequestsWorkspace';
import { parseBeforeDays, scheduleText } from './TemplatesEditor';

const TEMPLATES = '/api/requests/templates';
const yearEnd: RequestTemplate = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Year-end records',
  items: [
    { kind: 'document', label: 'Bank statements for the year', document_type: 'bank_statements' },
    { kind: 'question', label: 'Any new loans?', document_type: null },
  ],
  schedule: { before_days: [14, 7, 3, 1], overdue_every_days: 3 },
  deadline_kind: 'accounts',
  lead_days: 90,
  updated_at: '2026-11-01T10:00:00Z',
};

const base = {
  'GET /api/requests': () => json(200, { requests: [] }),
  'GET /api/requests/clients': () => json(200, { clients: [] }),
};
const at = (templates = true) =>
  renderAt('/staff/dashboard', {
    routes: [{ path: '/staff/dashboard', element: <RequestsWorkspace realm="user" templates={templates} /> }],
  });

async function pick(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) {
  await user.click(combobox);
  await user.click((await screen.findAllByTitle(option)).at(-1)!);
}

describe('Request templates (issue #28)', { timeout: 60_000 }, () => {
  it('says the schedule in words and reads the days typed', () => {
    expect(scheduleText({ before_days: [14, 7, 3, 1], overdue_every_days: 3 })).toBe(
      'When sent, then 14, 7, 3 and 1 days before; every 3 days when overdue',
    );
    expect(scheduleText({ before_days: [1], overdue_every_days: 1 })).toBe('When sent, then 1 day before; every day when overdue');
    expect(scheduleText({ before_days: [], overdue_every_days: 7 })).toBe('When sent; every 7 days when overdue');
    expect(parseBeforeDays('3, 14 7,7 1')).toEqual([14, 7, 3, 1]);
    expect(parseBeforeDays('')).toEqual([]);
    expect(parseBeforeDays('14, 0')).toBe('Days before the due date: whole numbers from 1 to 365');
    expect(parseBeforeDays('two')).toBe('Days before the due date: whole numbers from 1 to 365');
  });

  it('lists the templates with their items, deadline and reminders; only for those who may edit them', async () => {
    mockFetch({ ...base, [`GET ${TEMPLATES}`]: () => json(200, { templates: [yearEnd] }) });
    const view = at();
    const row = (await screen.findByText('Year-end records', { selector: 'td' })).closest('tr')!;
    expect(row).toHaveTextContent('Bank statements for the year (Bank statements)');
    expect(row).toHaveTextContent('Any new loans? (Answer a question)');
    expect(row).toHaveTextContent('90 days before: Annual accounts (Companies House)');
    expect(row).toHaveTextContent('When sent, then 14, 7, 3 and 1 days before; every 3 days when overdue');
    view.unmount();
    at(false);
    expect(await screen.findByRole('button', { name: 'Send request' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Request templates' })).not.toBeInTheDocument();
  });

  it('adds a template: title, items with kinds and document types, deadline kind and lead time, reminders', async () => {
    const { callsTo } = mockFetch({
      ...base,
      [`GET ${TEMPLATES}`]: () => json(200, { templates: [] }),
      [`POST ${TEMPLATES}`]: () => json(201, { ...yearEnd, id: '33333333-3333-4333-8333-333333333333', name: 'VAT quarter records' }),
    });
    at();
    const user = userEvent.setup();
    expect(await screen.findByText('No templates yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New template' }));
    const dialog = await findDialog('New request template');
    await user.click(within(dialog).getByRole('button', { name: 'Save template' }));
    expect(await within(dialog).findByText('Give the template a name')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Title'), 'VAT quarter records');
    await user.type(within(dialog).getByLabelText('Item 1'), 'Sales invoices for the quarter');
    await pick(user, within(dialog).getByLabelText('Item 1 document type'), 'Sales invoices');
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    await user.type(within(dialog).getByLabelText('Item 2'), 'Did you import goods?');
    await pick(user, within(dialog).getByLabelText('Item 2 kind'), 'Confirm yes or no');
    expect(within(dialog).queryByLabelText('Item 2 document type')).not.toBeInTheDocument();
    await pick(user, within(dialog).getByLabelText('Deadline kind'), 'VAT return and payment');
    expect(within(dialog).getByLabelText('Days before the deadline')).toHaveValue('21');
    const before = within(dialog).getByLabelText('Days before the due date');
    await user.clear(before);
    await user.type(before, '10, 5, x');
    await user.click(within(dialog).getByRole('button', { name: 'Save template' }));
    expect(await within(dialog).findByText('Days before the due date: whole numbers from 1 to 365')).toBeInTheDocument();
    expect(callsTo(`POST ${TEMPLATES}`)).toHaveLength(0);
    await user.clear(before);
    await user.type(before, '5, 10');
    const overdue = within(dialog).getByLabelText('Once overdue, every (days)');
    await user.clear(overdue);
    await user.type(overdue, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(callsTo(`POST ${TEMPLATES}`)).toHaveLength(1));
    expect(callsTo(`POST ${TEMPLATES}`)[0]!.body).toEqual({
      name: 'VAT quarter records',
      items: [
        { kind: 'document', label: 'Sales invoices for the quarter', document_type: 'sales_invoices' },
        { kind: 'confirm', label: 'Did you import goods?', document_type: null },
      ],
      schedule: { before_days: [10, 5], overdue_every_days: 2 },
      deadline_kind: 'vat_return',
      lead_days: 21,
    });
    expect(await screen.findByText('Template added: VAT quarter records')).toBeInTheDocument();
  });

  it('edits a template (PUT), shows the server refusal, and deletes one after confirming', async () => {
    const { callsTo } = mockFetch({
      ...base,
      [`GET ${TEMPLATES}`]: () => json(200, { templates: [yearEnd] }),
      [`PUT ${TEMPLATES}/${yearEnd.id}`]: [
        () => apiError(400, 'VALIDATION_FAILED', 'A deadline kind and a lead time go together'),
        () => json(200, { ...yearEnd, name: 'Year-end records 2026' }),
      ],
      [`DELETE ${TEMPLATES}/${yearEnd.id}`]: () => json(200, { ok: true, message: 'Template deleted' }),
    });
    at();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Year-end records' }));
    const dialog = await findDialog('Edit template: Year-end records');
    expect(within(dialog).getByLabelText('Item 2')).toHaveValue('Any new loans?');
    expect(within(dialog).getByLabelText('Days before the due date')).toHaveValue('14, 7, 3, 1');
    await user.type(within(dialog).getByLabelText('Title'), ' 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Remove item 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save template' }));
    expect(await within(dialog).findByText('A deadline kind and a lead time go together')).toBeInTheDocument();
    // (The button says "loading" until the refused call has settled.)
    const save = within(dialog).getByText('Save template').closest('button')!;
    await waitFor(() => expect(save).not.toHaveClass('ant-btn-loading'));
    await user.click(save);
    await waitFor(() => expect(callsTo(`PUT ${TEMPLATES}/${yearEnd.id}`)).toHaveLength(2));
    expect(callsTo(`PUT ${TEMPLATES}/${yearEnd.id}`)[1]!.body).toEqual({
      name: 'Year-end records 2026',
      items: [{ kind: 'document', label: 'Bank statements for the year', document_type: 'bank_statements' }],
      schedule: { before_days: [14, 7, 3, 1], overdue_every_days: 3 },
      deadline_kind: 'accounts',
      lead_days: 90,
    });

    await user.click(screen.getByRole('button', { name: 'Delete Year-end records' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo(`DELETE ${TEMPLATES}/${yearEnd.id}`)).toHaveLength(1));
    expect(await screen.findByText('Template deleted: Year-end records')).toBeInTheDocument();
  });
});

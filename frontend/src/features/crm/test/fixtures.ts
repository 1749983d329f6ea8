import { screen, waitFor } from '@testing-library/react';
import type { Mock } from 'vitest';
import type { Client, CrmStats, Lead, SidebarCounts, Task } from '@countinghouse/proto';

// Test data shaped exactly like the crm contracts (proto/src/crm), so a contract change breaks these tests.

let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

export function client(over: Partial<Client> = {}): Client {
  return {
    id: uuid(),
    user_id: null,
    company_name: 'Acme Ltd',
    contact_name: 'Ada Lovelace',
    contact_email: 'ada@acme.example',
    contact_phone: '020 7946 0001',
    business_type: 'limited',
    package_name: 'Growth',
    monthly_fee: 100,
    subscription_status: 'active',
    next_billing_date: null,
    registration_date: '2026-03-05T10:00:00Z',
    onboarding_completed: false,
    employees_count: 12,
    created_at: '2026-03-05T10:00:00Z',
    updated_at: '2026-03-05T10:00:00Z',
    assigned_accountant_id: null,
    assigned_accountant_name: null,
    ...over,
  };
}

export function lead(over: Partial<Lead> = {}): Lead {
  return {
    id: uuid(),
    name: 'Grace Hopper',
    email: 'grace@navy.example',
    phone: null,
    company_name: 'Hopper Partners',
    stage: 'new_enquiry',
    business_type: 'partnership',
    quote_amount: 150,
    source: 'Referral',
    tags: [],
    notes: null,
    external_id: null,
    converted_client_id: null,
    created_at: '2026-02-14T09:00:00Z',
    updated_at: '2026-02-14T09:00:00Z',
    ...over,
  };
}

export function task(over: Partial<Task> = {}): Task {
  return {
    id: uuid(),
    title: 'File VAT return',
    description: null,
    client_id: null,
    client_company_name: 'Acme Ltd',
    assignee_id: null,
    assignee_name: 'Sam Staff',
    due_date: '2026-04-07',
    status: 'pending',
    priority: 'high',
    created_at: '2026-03-01T09:00:00Z',
    updated_at: '2026-03-01T09:00:00Z',
    completed_at: null,
    ...over,
  };
}

/** Billing's monthly revenue (the one definition): deliberately not crm's monthly_revenue below. */
export const REVENUE_ROUTE = 'GET /api/billing/revenue';
export const REVENUE = { monthly_revenue: 9876.25, active_subscriptions: 987, overdue_fees: 450, overdue_subscriptions: 3 };

export const STATS: CrmStats = {
  total_clients: 1234,
  active_clients: 987,
  monthly_revenue: 12345.5,
  active_monthly_revenue: 9000,
  active_plans: 987,
  team_members: 7,
  total_leads: 321,
  new_leads: 42,
};

export const COUNTS: SidebarCounts = { clients: 1234, leads: 321, pending_tasks: 5, pending_upgrades: 2, communications_24h: 9 };

export const page = <K extends string, T>(key: K, rows: T[], total = rows.length, p = 1, size = 12) =>
  ({ [key]: rows, total, page: p, page_size: size }) as Record<K, T[]> & { total: number; page: number; page_size: number };

/** The query strings of every request to `path`, in order (mockFetch records only the path). */
export function queriesTo(fetchMock: Mock, method: string, path: string): URLSearchParams[] {
  return fetchMock.mock.calls
    .map(([input]) => input as Request)
    .filter((r) => r.method === method && new URL(r.url).pathname === path)
    .map((r) => new URL(r.url).searchParams);
}

export const lastQuery = (fetchMock: Mock, path: string) => {
  const all = queriesTo(fetchMock, 'GET', path);
  return Object.fromEntries(all[all.length - 1] ?? []);
};

/**
 * The open antd dialog with this title. (Under test antd gives every dialog aria-labelledby="test-id",
 * so the accessible name is unreliable; the title text is what the user sees.)
 */
export function findDialog(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const match = screen.getAllByRole('dialog').find((d) => d.querySelector('.ant-modal-title')?.textContent === title);
    if (!match) throw new Error(`no open dialog titled ${title}`);
    return match;
  });
}

/** A stand-in XMLHttpRequest (the documents uploader uses XHR for progress) that stores every file. */
export class UploadXhr {
  static sent: FormData[] = [];
  status = 0;
  responseText = '';
  withCredentials = false;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open() {}
  abort() {}
  send(form: FormData) {
    UploadXhr.sent.push(form);
    setTimeout(() => {
      this.status = 201;
      this.responseText = JSON.stringify({ success: true, documents: [] });
      this.onload?.();
    }, 10);
  }
}

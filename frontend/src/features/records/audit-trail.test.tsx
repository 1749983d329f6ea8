import { screen, within } from '@testing-library/react';
import type { AuditRecord } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const admin = { id: 'a1', username: 'admin', role: 'admin' } as const;

const entry = (over: Partial<AuditRecord>): AuditRecord => ({
  id: '1',
  client_id: null,
  client_name: null,
  seq: 1,
  occurred_at: '2026-12-06T09:04:00Z',
  actor_kind: 'system',
  actor_id: null,
  actor_name: null,
  ip: null,
  action: 'crm.client_upserted',
  summary: 'Client record created',
  hash: 'h',
  ...over,
});

describe("the practice's audit trail", () => {
  it("names each entry's client, linking to the record; an entry about no client is the practice's", async () => {
    mockFetch({
      'GET /api/identity/admin/session': () => json(200, { success: true, user: admin, expires_at: '2027-03-05T18:00:00Z' }),
      'GET /api/records/audit': () =>
        json(200, {
          entries: [
            entry({ id: '3', client_id: 'c-bright', client_name: 'Bright Spark Electrical Ltd', summary: 'Changed: contact phone' }),
            entry({ id: '2', client_id: 'c-unknown', client_name: null, summary: 'Viewed the client record' }),
            entry({ id: '1', summary: 'Retention schedule changed' }),
          ],
          total: 3,
          page: 1,
          page_size: 25,
        }),
    });
    renderAt('/admin/audit');
    const named = await screen.findByRole('link', { name: 'Bright Spark Electrical Ltd' });
    expect(named).toHaveAttribute('href', '/admin/clients/c-bright');
    // a client records has not heard of still leads to its record
    expect(screen.getByRole('link', { name: 'Client record' })).toHaveAttribute('href', '/admin/clients/c-unknown');
    const practiceRow = screen.getByText('Retention schedule changed').closest('tr')!;
    expect(within(practiceRow).getByText('Practice')).toBeInTheDocument();
    expect(screen.queryByText('c-bright')).not.toBeInTheDocument();
  });
});

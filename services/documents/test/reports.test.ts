import { DOCUMENT_TYPE_VALUES, DOCUMENTS_ROUTES, type DocumentList, type UploadsReport } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAdminOnly, expectRangeChecks, reportCallers, type ReportCallers } from '../../../gateway/test/report-access.js';
import { bearer } from '../../../gateway/test/helpers.js';
import { startDocumentsGateway, upsertClient, type DocumentsGateway } from './helpers.js';

// Uploads per ISO week by type, against a fixture with hand-computed totals. London time: GMT until
// 01:00 UTC on 30 March 2025, BST after. 1 March 2025 is a Saturday (ISO week 9, from Monday 24 Feb).
const DOCS: Array<[string, string]> = [
  ['vat', '2025-03-01T10:00:00Z'], // W09
  ['vat', '2025-03-02T23:30:00Z'], // Sunday 23:30 GMT: W09
  ['paye', '2025-03-03T00:00:00Z'], // Monday 00:00 GMT: W10
  ['vat', '2025-03-09T23:59:00Z'], // Sunday: W10
  ['payroll', '2025-03-20T12:00:00Z'], // W12
  ['bookkeeping', '2025-03-30T22:30:00Z'], // Sunday 23:30 BST: W13
  ['general', '2025-03-30T23:30:00Z'], // Monday 31 March 00:30 BST: W14
  ['cis', '2025-02-28T23:59:00Z'], // February: outside
  ['vat', '2025-03-31T23:30:00Z'], // 1 April 00:30 BST: outside
  ['corporation_tax', '2024-12-31T12:00:00Z'], // ISO week 1 of 2025
];

describe('documents reports', () => {
  let gw: DocumentsGateway;
  let who: ReportCallers;
  const get = async <T>(url: string) => {
    const r = await gw.app.inject({ method: 'GET', url, headers: bearer(who.panelAdmin) });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as T;
  };
  const counts = (by: Partial<Record<string, number>>) => ({ ...Object.fromEntries(DOCUMENT_TYPE_VALUES.map((t) => [t, 0])), ...by });

  beforeAll(async () => {
    gw = await startDocumentsGateway();
    who = await reportCallers(gw, 'documents');
    const client = await upsertClient(gw, { companyName: 'Acme Bakery Ltd', contactEmail: 'owner@acme.example' });
    let i = 0;
    for (const [type, at] of DOCS) {
      i += 1;
      await gw.kit.runtime.pool.query(
        `insert into documents.client_documents (client_id, filename, document_type, file_path, file_size, content_type, uploaded_by, status, created_at, search_text)
         values ($1, $2, $3, $4, 100, 'application/pdf', 'fixture', 'active', $5, $2)`,
        [client.clientId, `doc-${i}.pdf`, type, `${client.clientId}/${type}/${i}.pdf`, at],
      );
    }
  });
  afterAll(async () => gw?.close());

  it('counts uploads per ISO week (London) by type, every week and type listed', async () => {
    const r = await get<UploadsReport>('/api/documents/reports/uploads?from=2025-03-01&to=2025-03-31');
    expect(r.total).toBe(7);
    expect(r.by_type).toEqual(counts({ vat: 3, paye: 1, payroll: 1, bookkeeping: 1, general: 1 }));
    expect(r.weeks).toEqual([
      { week: '2025-W09', week_start: '2025-02-24', total: 2, by_type: counts({ vat: 2 }) },
      { week: '2025-W10', week_start: '2025-03-03', total: 2, by_type: counts({ vat: 1, paye: 1 }) },
      { week: '2025-W11', week_start: '2025-03-10', total: 0, by_type: counts({}) },
      { week: '2025-W12', week_start: '2025-03-17', total: 1, by_type: counts({ payroll: 1 }) },
      { week: '2025-W13', week_start: '2025-03-24', total: 1, by_type: counts({ bookkeeping: 1 }) },
      { week: '2025-W14', week_start: '2025-03-31', total: 1, by_type: counts({ general: 1 }) },
    ]);
  });

  it('labels weeks by ISO week-numbering year across the new year', async () => {
    const r = await get<UploadsReport>('/api/documents/reports/uploads?from=2024-12-28&to=2025-01-05');
    expect(r.weeks.map((w) => [w.week, w.week_start, w.total])).toEqual([
      ['2024-W52', '2024-12-23', 0],
      ['2025-W01', '2024-12-30', 1],
    ]);
  });

  it('the documents list with the same range counts the same, in total and per type', async () => {
    const r = await get<UploadsReport>('/api/documents/reports/uploads?from=2025-03-01&to=2025-03-31');
    const range = 'created_from=2025-03-01&created_to=2025-03-31&page_size=100';
    const list = await get<DocumentList>(`${DOCUMENTS_ROUTES.list}?${range}`);
    expect([list.total, list.documents.length]).toEqual([r.total, r.total]);
    for (const type of DOCUMENT_TYPE_VALUES) {
      expect((await get<DocumentList>(`${DOCUMENTS_ROUTES.list}?${range}&type=${type}`)).total, type).toBe(r.by_type[type]);
    }
    // A week's figure is the list over that week's days.
    const w10 = await get<DocumentList>(`${DOCUMENTS_ROUTES.list}?created_from=2025-03-03&created_to=2025-03-09`);
    expect(w10.total).toBe(r.weeks[1]!.total);
  });

  it('checks the range', async () => {
    await expectRangeChecks(gw, who.panelAdmin, '/api/documents/reports/uploads');
  });

  it('is for administrators only', async () => {
    await expectAdminOnly(gw, who, '/api/documents/reports/uploads?from=2025-03-01&to=2025-03-31');
  });
});

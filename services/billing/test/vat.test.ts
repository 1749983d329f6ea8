import { invoiceNumber, normaliseVatNumber, vatLines, VAT_MESSAGES } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePerson, startTestGateway, type Person, type TestGateway } from '../../../gateway/test/helpers.js';
import { pdfTextLines } from '../../engagement/test/pdf-text.js';
import { adminToken, bearer, checkout, count, verify, waitForCustomer } from './helpers.js';

// VAT (issue 33): the practice's registration, '+ VAT' on prices, the VAT-inclusive amount at the
// checkout, and a VAT invoice for every payment (VAT Regulations 1995 reg. 14), as a PDF.

describe('VAT arithmetic (dated examples: the standard rate is 20% since 4 January 2011)', () => {
  it.each([
    [100, 20, { net: 100, vat: 20, gross: 120 }], // Growth, 2026
    [40, 20, { net: 40, vat: 8, gross: 48 }], // Sole Trader Package
    [33.33, 20, { net: 33.33, vat: 6.67, gross: 40 }], // 6.666 rounds to the nearest penny (Notice 700 s.17.5)
    [10.025, 20, { net: 10.03, vat: 2.01, gross: 12.04 }],
    [150, 17.5, { net: 150, vat: 26.25, gross: 176.25 }], // the rate until 3 January 2011
    [100, 0, { net: 100, vat: 0, gross: 100 }], // not registered
  ])('%s at %s%%', (net, rate, want) => {
    expect(vatLines(net, rate)).toEqual({ ...want, rate });
  });

  it('reads UK VAT numbers and numbers invoices in one sequence', () => {
    expect(normaliseVatNumber('gb 123 4567 89')).toBe('GB123456789');
    expect(normaliseVatNumber('123456789000')).toBe('GB123456789000');
    expect(normaliseVatNumber('GB12345')).toBeNull();
    expect(invoiceNumber('invoice', 7)).toBe('INV-000007');
    expect(invoiceNumber('credit_note', 12)).toBe('CN-000012');
  });
});

describe('billing: VAT registration and VAT invoices', () => {
  let gw: TestGateway;
  let admin: string;
  let ann: Person;
  let ben: Person;

  const putVat = (token: string, payload: Record<string, unknown>) =>
    gw.app.inject({ method: 'PUT', url: '/api/billing/vat', headers: bearer(token), payload });
  const invoices = (token: string) => gw.app.inject({ method: 'GET', url: '/api/billing/invoices', headers: bearer(token) });

  async function pay(p: Person, pkg: string) {
    const sessionId = (await checkout(gw, p.token, pkg)).json().session_id as string;
    const page = await gw.app.inject({ method: 'GET', url: `/api/billing/test-checkout/${sessionId}`, headers: bearer(p.token) });
    await gw.app.inject({ method: 'POST', url: `/api/billing/test-checkout/${sessionId}/pay`, headers: bearer(p.token) });
    expect((await verify(gw, p.token, sessionId)).statusCode).toBe(200);
    return page.json();
  }

  beforeAll(async () => {
    gw = await startTestGateway();
    admin = await adminToken(gw.app);
    ann = await makePerson(gw, 'ann@annsbakery.co.uk');
    ben = await makePerson(gw, 'ben@benbuilds.co.uk');
    await waitForCustomer(gw, ann.id);
    await waitForCustomer(gw, ben.id);
  });
  afterAll(async () => gw?.close());

  it('not registered at first: no VAT on the prices', async () => {
    const pk = await gw.app.inject({ method: 'GET', url: '/api/billing/packages' });
    expect(pk.json().vat_rate).toBe(0);
    const vat = await gw.app.inject({ method: 'GET', url: '/api/billing/vat', headers: bearer(admin) });
    expect((await gw.app.inject({ method: 'GET', url: '/api/billing/vat', headers: bearer(ann.token) })).statusCode).toBe(403);
    expect(vat.json()).toMatchObject({ registered: false, vat_number: null });
  });

  it('only an administrator records the registration; a bad number or a missing address is refused', async () => {
    const body = { vat_number: 'GB 123 4567 89', rate: 20, address: '1 Counting Lane, London, EC1A 1AA' };
    expect((await putVat(ann.token, body)).statusCode).toBe(403);
    const manager = await makePerson(gw, 'mia@example.co.uk', ['manager']);
    expect((await putVat(manager.token, body)).statusCode).toBe(403);
    expect((await gw.app.inject({ method: 'PUT', url: '/api/billing/vat', payload: body })).statusCode).toBe(401);
    const bad = await putVat(admin, { ...body, vat_number: 'GB12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(VAT_MESSAGES.numberInvalid);
    const noAddress = await putVat(admin, { ...body, address: ' ' });
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().error.message).toBe(VAT_MESSAGES.addressRequired);
    const ok = await putVat(admin, body);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ registered: true, vat_number: 'GB123456789', rate: 20 });
    expect((await gw.app.inject({ method: 'GET', url: '/api/billing/packages' })).json().vat_rate).toBe(20);
  });

  it('the checkout shows Growth as £100.00 + £20.00 VAT = £120.00, and the payment has a VAT invoice', async () => {
    const page = await pay(ann, 'Growth');
    expect(page).toMatchObject({ monthly_fee: 100, vat_rate: 20, vat: 20, gross: 120 });
    const list = (await invoices(ann.token)).json().invoices;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      number: 'INV-000001',
      kind: 'invoice',
      net: 100,
      vat_rate: 20,
      vat: 20,
      gross: 120,
      vat_number: 'GB123456789',
      email: 'ann@annsbakery.co.uk',
    });
    expect(list[0].description).toContain('Growth');
    // The PDF: the client downloads it; it holds every particular of reg. 14.
    const pdf = await gw.app.inject({ method: 'GET', url: `/api/billing/invoices/${list[0].id}/pdf`, headers: bearer(ann.token) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('INV-000001.pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfTextLines(pdf.rawPayload).join('\n');
    for (const s of ['VAT registration number: GB123456789', 'INV-000001', '1 Counting Lane', 'Test Practice', 'VAT at 20%', 'Total'])
      expect(text).toContain(s);
  });

  it('numbers follow in sequence; each client sees only their own; the practice sees all', async () => {
    await pay(ben, 'Sole Trader Package');
    const mine = (await invoices(ben.token)).json().invoices;
    expect(mine.map((i: { number: string; gross: number }) => [i.number, i.gross])).toEqual([['INV-000002', 48]]);
    const annsId = (await invoices(ann.token)).json().invoices[0].id as string;
    expect(
      (await gw.app.inject({ method: 'GET', url: `/api/billing/invoices/${annsId}/pdf`, headers: bearer(ben.token) })).statusCode,
    ).toBe(404);
    expect((await gw.app.inject({ method: 'GET', url: `/api/billing/invoices/${annsId}/pdf`, headers: bearer(admin) })).statusCode).toBe(
      200,
    );
    const all = await gw.app.inject({ method: 'GET', url: '/api/billing/admin/invoices', headers: bearer(admin) });
    expect(all.json().invoices.map((i: { number: string }) => i.number)).toEqual(['INV-000002', 'INV-000001']);
    expect((await gw.app.inject({ method: 'GET', url: '/api/billing/admin/invoices', headers: bearer(ben.token) })).statusCode).toBe(403);
    // A replayed verification makes no second invoice; invoices are never changed.
    expect(await count(gw, 'select 1 from billing.invoices')).toBe(2);
    await expect(gw.kit.runtime.pool.query(`update billing.invoices set gross = 1`)).rejects.toThrow(/never changed/);
  });
});

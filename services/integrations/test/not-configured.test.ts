import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '@countinghouse/kit/testing';
import { bearer, makePerson } from '../../../gateway/test/helpers.js';
import { card, list, startIntegrationsGateway, upsertClient, type IntegrationsGateway } from './helpers.js';

// No provider credentials on this server.
let gw: IntegrationsGateway;
beforeAll(async () => {
  gw = await startIntegrationsGateway({});
});
afterAll(async () => {
  await gw?.close();
});

it('without app credentials the cards say not configured and Connect answers 503 with a clear message', async () => {
  const person = await makePerson(gw, 'owner@quiet-shop.co.uk', ['client']);
  await upsertClient(gw, { userId: person.id, companyName: 'Quiet Shop Ltd' });
  const l = await list(gw, person.token);
  expect(card(l, 'xero')).toMatchObject({ configured: false, is_active: false, integration_data: { company_name: null } });
  expect(card(l, 'quickbooks').configured).toBe(false);
  for (const [provider, label] of [
    ['xero', 'Xero'],
    ['quickbooks', 'QuickBooks'],
  ] as const) {
    const res = await gw.inject({ method: 'POST', url: `/api/integrations/${provider}/connect`, headers: bearer(person.token) });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toEqual({
      code: 'NOT_CONFIGURED',
      message: expect.stringContaining(`${label} is not configured on this server`),
    });
  }
});

it('without HMRC credentials MTD runs offline: scope and figures kept, Connect answers 503, nothing is sent', async () => {
  const manager = await makePerson(gw, 'manager@quiet-practice.co.uk', ['manager']);
  const { clientId } = await upsertClient(gw, { userId: null, companyName: 'Offline Sole Trader' });
  const conn = await gw.inject({ method: 'GET', url: '/api/integrations/mtd/connection', headers: bearer(manager.token) });
  expect(conn.json()).toMatchObject({ configured: false, connected: false });
  const res = await gw.inject({ method: 'POST', url: '/api/integrations/mtd/connect', headers: bearer(manager.token) });
  expect(res.statusCode).toBe(503);
  expect(res.json().error).toEqual({ code: 'NOT_CONFIGURED', message: expect.stringContaining('HMRC is not configured on this server') });
  await waitFor(
    async () =>
      (await gw.inject({ method: 'GET', url: `/api/integrations/mtd/clients/${clientId}`, headers: bearer(manager.token) })).statusCode ===
      200,
    'directory entry',
    10_000,
    25,
  );
  const income = await gw.inject({
    method: 'POST',
    url: `/api/integrations/mtd/clients/${clientId}/income`,
    headers: bearer(manager.token),
    payload: { taxYear: '2024-25', amount: 52_000 },
  });
  expect(income.statusCode).toBe(201);
  const rec = await gw.inject({ method: 'GET', url: `/api/integrations/mtd/clients/${clientId}`, headers: bearer(manager.token) });
  expect(rec.json().scope).toMatchObject({ mandatedFrom: 'now', mandatedFromDate: '2026-04-06' });
  await gw.inject({
    method: 'PUT',
    url: `/api/integrations/mtd/clients/${clientId}/identifiers`,
    headers: bearer(manager.token),
    payload: { nino: 'TC663795B', postcode: 'TF3 4NT' },
  });
  const auth = await gw.inject({
    method: 'POST',
    url: `/api/integrations/mtd/clients/${clientId}/authorisations`,
    headers: bearer(manager.token),
    payload: { agentType: 'main' },
  });
  expect(auth.statusCode).toBe(503);
  const { rows } = await gw.kit.runtime.pool.query('select count(*)::int as n from integrations.hmrc_calls');
  expect(rows[0].n).toBe(0);
});

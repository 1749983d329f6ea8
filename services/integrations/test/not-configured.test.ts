import { afterAll, beforeAll, expect, it } from 'vitest';
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

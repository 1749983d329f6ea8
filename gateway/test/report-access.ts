import { expect } from 'vitest';
import { bearer, login, makePerson, type TestGateway } from './helpers.js';

/** Everyone a report endpoint must tell apart: who may read reports (admin) and who may not. */
export interface ReportCallers {
  /** The admin panel account. */
  panelAdmin: string;
  /** A person holding an active admin grant. */
  personAdmin: string;
  manager: string;
  staff: string;
  accountant: string;
  client: string;
}

export async function reportCallers(gw: TestGateway, tag: string): Promise<ReportCallers> {
  const li = await login(gw.app);
  if (li.statusCode !== 200) throw new Error(`admin login failed: ${li.body}`);
  const person = async (role: string) => (await makePerson(gw, `${role}.${tag}@reports.example`, [role])).token;
  return {
    panelAdmin: li.json().session_token as string,
    personAdmin: await person('admin'),
    manager: await person('manager'),
    staff: await person('staff'),
    accountant: await person('accountant'),
    client: await person('client'),
  };
}

/** Admins (panel and granted) get 200; manager, staff, accountant and client 403; no session 401. */
export async function expectAdminOnly(gw: TestGateway, callers: ReportCallers, url: string) {
  const status = async (token?: string) => (await gw.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} })).statusCode;
  expect({
    panelAdmin: await status(callers.panelAdmin),
    personAdmin: await status(callers.personAdmin),
    manager: await status(callers.manager),
    staff: await status(callers.staff),
    accountant: await status(callers.accountant),
    client: await status(callers.client),
    anonymous: await status(),
  }).toEqual({ panelAdmin: 200, personAdmin: 200, manager: 403, staff: 403, accountant: 403, client: 403, anonymous: 401 });
}

/** The three ways a range can be wrong, each a 400 that says which. */
export async function expectRangeChecks(gw: TestGateway, token: string, path: string) {
  const get = (qs: string) => gw.app.inject({ method: 'GET', url: `${path}?${qs}`, headers: bearer(token) });
  const cases: Array<[string, string]> = [
    ['from=2025-03-01&to=2025-02-28', 'The start date must be on or before the end date.'],
    ['from=2020-01-01&to=2025-01-02', 'Choose a date range of at most 5 years.'],
    ['from=2025-02-30&to=2025-03-31', 'Enter the start date as YYYY-MM-DD (for example 2026-01-31).'],
    ['from=2025-01-01&to=31/03/2025', 'Enter the end date as YYYY-MM-DD (for example 2026-12-31).'],
  ];
  for (const [qs, message] of cases) {
    const res = await get(qs);
    expect(res.statusCode, qs).toBe(400);
    expect(res.json().error, qs).toMatchObject({ code: 'VALIDATION_FAILED', message });
  }
  const missing = await get('from=2025-01-01');
  expect(missing.statusCode).toBe(400);
  expect(missing.json().error.code).toBe('VALIDATION_FAILED');
  // Exactly five years is allowed.
  expect((await get('from=2020-01-01&to=2025-01-01')).statusCode).toBe(200);
}

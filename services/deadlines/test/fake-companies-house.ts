// A local server speaking the Companies House Public Data API (the resources the product reads), with
// answers shaped like its documented ones (companyProfile, officerList, pscList, companySearch) and its
// errors: 401 for a wrong key, 404 for an unknown company, 429 with Retry-After when told to.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCompany {
  profile: Record<string, unknown>;
  officers?: Array<Record<string, unknown>>;
  pscs?: Array<Record<string, unknown>>;
}

export interface FakeCompaniesHouse {
  url: string;
  apiKey: string;
  companies: Map<string, FakeCompany>;
  requests: Array<{ path: string; authorised: boolean }>;
  /** Answer the next n requests with 429 and this Retry-After (seconds). */
  throttleNext(n: number, retryAfterSeconds: number): void;
  close(): Promise<void>;
}

/** The acceptance example: 09876543, accounts to 31 Mar 2026 due 31 Dec 2026, confirmation statement due 14 Aug 2026. */
export function acmeCompany(overrides: Record<string, unknown> = {}): FakeCompany {
  return {
    profile: {
      company_name: 'ACME WIDGETS LIMITED',
      company_number: '09876543',
      company_status: 'active',
      type: 'ltd',
      date_of_creation: '2015-11-02',
      jurisdiction: 'england-wales',
      can_file: true,
      has_charges: false,
      has_insolvency_history: false,
      registered_office_address: {
        address_line_1: '1 Ledger Lane',
        locality: 'London',
        postal_code: 'EC1A 1AA',
        country: 'England',
      },
      sic_codes: ['62020'],
      // Real answers carry these as strings.
      accounts: {
        accounting_reference_date: { day: '31', month: '03' },
        last_accounts: { made_up_to: '2025-03-31', period_end_on: '2025-03-31', period_start_on: '2024-04-01', type: 'micro-entity' },
        next_accounts: { due_on: '2026-12-31', overdue: false, period_end_on: '2026-03-31', period_start_on: '2025-04-01' },
        next_due: '2026-12-31',
        next_made_up_to: '2026-03-31',
        overdue: false,
      },
      confirmation_statement: { last_made_up_to: '2025-07-31', next_due: '2026-08-14', next_made_up_to: '2026-07-31', overdue: false },
      links: { self: '/company/09876543' },
      etag: 'e1',
      ...overrides,
    },
    officers: [
      {
        name: 'WIDGET, Alice Mary',
        officer_role: 'director',
        appointed_on: '2015-11-02',
        nationality: 'British',
        occupation: 'Director',
        links: {},
      },
      { name: 'GEAR, Bob', officer_role: 'secretary', appointed_on: '2016-01-01', resigned_on: '2020-06-30', links: {} },
    ],
    pscs: [
      {
        name: 'Mrs Alice Mary Widget',
        kind: 'individual-person-with-significant-control',
        notified_on: '2016-04-06',
        natures_of_control: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
        name_elements: { forename: 'Alice', surname: 'Widget', title: 'Mrs' },
        links: { self: '/company/09876543/persons-with-significant-control/individual/abc' },
        etag: 'p1',
      },
    ],
  };
}

function authorised(req: IncomingMessage, apiKey: string): boolean {
  const h = req.headers.authorization ?? '';
  if (!h.startsWith('Basic ')) return false;
  return Buffer.from(h.slice(6), 'base64').toString('utf8') === `${apiKey}:`;
}

export async function startFakeCompaniesHouse(apiKey = 'test-ch-key'): Promise<FakeCompaniesHouse> {
  const companies = new Map<string, FakeCompany>();
  const requests: FakeCompaniesHouse['requests'] = [];
  let throttle = { n: 0, retryAfter: 0 };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const ok = authorised(req, apiKey);
    requests.push({ path: url.pathname + url.search, authorised: ok });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (!ok) return send(401, { error: 'Invalid Authorization', type: 'ch:service' });
    if (throttle.n > 0) {
      throttle.n--;
      return send(
        429,
        { error: 'Too Many Requests' },
        { 'retry-after': String(throttle.retryAfter), 'x-ratelimit-limit': '600', 'x-ratelimit-remain': '0' },
      );
    }
    const m = /^\/company\/([A-Z0-9]+)(\/officers|\/persons-with-significant-control)?$/.exec(url.pathname);
    if (m) {
      const c = companies.get(m[1]!);
      if (!c) return send(404, { errors: [{ error: 'company-profile-not-found', type: 'ch:service' }] });
      if (m[2] === '/officers') {
        const items = c.officers ?? [];
        return send(200, {
          kind: 'officer-list',
          items,
          items_per_page: 35,
          start_index: 0,
          total_results: items.length,
          active_count: items.filter((o) => !o.resigned_on).length,
          resigned_count: items.filter((o) => o.resigned_on).length,
          links: { self: `/company/${m[1]}/officers` },
          etag: 'o1',
        });
      }
      if (m[2] === '/persons-with-significant-control') {
        const items = c.pscs ?? [];
        if (items.length === 0) return send(404, { errors: [{ error: 'company-psc-not-found', type: 'ch:service' }] });
        return send(200, {
          items,
          items_per_page: 25,
          start_index: 0,
          total_results: items.length,
          active_count: items.length,
          ceased_count: 0,
          links: { self: `/company/${m[1]}/persons-with-significant-control` },
        });
      }
      return send(200, c.profile);
    }
    if (url.pathname === '/search/companies') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const items = [...companies.values()]
        .filter((c) => String(c.profile.company_name).toLowerCase().includes(q))
        .map((c) => ({
          kind: 'searchresults#company',
          company_number: c.profile.company_number,
          title: c.profile.company_name,
          company_status: c.profile.company_status,
          company_type: c.profile.type,
          date_of_creation: c.profile.date_of_creation,
          address_snippet: '1 Ledger Lane, London, EC1A 1AA',
          links: { self: `/company/${String(c.profile.company_number)}` },
        }));
      return send(200, {
        kind: 'search#companies',
        items,
        items_per_page: 20,
        page_number: 1,
        start_index: 0,
        total_results: items.length,
      });
    }
    send(404, { errors: [{ error: 'not-found', type: 'ch:service' }] });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    companies,
    requests,
    throttleNext(n, retryAfterSeconds) {
      throttle = { n, retryAfter: retryAfterSeconds };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * The identity verification acceptance example (issue #30) on 09876543: officers and PSCs carrying
 * identity_verification_details as the Public Data API documents them (officerList / pscList items):
 * a director verified on 2026-03-02; a director whose statement is due 2026-12-14; a director whose
 * statement was due 2026-09-01 and who is not verified; an individual PSC notified on 2026-11-20 with no
 * verification details; a corporate PSC notified on 2026-11-20.
 */
export function acmeIdentityCompany(): FakeCompany {
  const base = acmeCompany();
  const details = (d: Record<string, unknown>) => ({
    anti_money_laundering_supervisory_bodies: [],
    ...d,
  });
  return {
    profile: base.profile,
    officers: [
      {
        name: 'WIDGET, Alice Mary',
        officer_role: 'director',
        appointed_on: '2015-11-02',
        date_of_birth: { month: 4, year: 1980 },
        nationality: 'British',
        occupation: 'Director',
        identity_verification_details: details({
          identity_verified_on: '2026-03-02',
          appointment_verification_start_on: '2026-03-02',
          appointment_verification_statement_due_on: '2026-08-14',
          authorised_corporate_service_provider_name: 'LEDGER ACSP LIMITED',
          anti_money_laundering_supervisory_bodies: ['Institute of Chartered Accountants in England and Wales'],
          preferred_name: 'Alice Widget',
        }),
        links: { officer: { appointments: '/officers/a1/appointments' } },
      },
      {
        name: 'COG, Charles',
        officer_role: 'director',
        appointed_on: '2019-05-01',
        date_of_birth: { month: 12, year: 1970 },
        identity_verification_details: details({ appointment_verification_statement_due_on: '2026-12-14' }),
        links: { officer: { appointments: '/officers/c1/appointments' } },
      },
      {
        name: 'SPROCKET, Diana',
        officer_role: 'director',
        appointed_on: '2020-02-29',
        date_of_birth: { month: 2, year: 1984 },
        identity_verification_details: details({ appointment_verification_statement_due_on: '2026-09-01' }),
        links: { officer: { appointments: '/officers/d1/appointments' } },
      },
      { name: 'GEAR, Bob', officer_role: 'secretary', appointed_on: '2016-01-01', resigned_on: '2020-06-30', links: {} },
    ],
    pscs: [
      {
        name: 'Mr Edward John Lever',
        kind: 'individual-person-with-significant-control',
        notified_on: '2026-11-20',
        date_of_birth: { month: 7, year: 1975 },
        natures_of_control: ['ownership-of-shares-25-to-50-percent'],
        name_elements: { forename: 'Edward', middle_name: 'John', surname: 'Lever', title: 'Mr' },
        links: { self: '/company/09876543/persons-with-significant-control/individual/e1' },
        etag: 'p2',
      },
      {
        name: 'GEARBOX HOLDINGS LIMITED',
        kind: 'corporate-entity-person-with-significant-control',
        notified_on: '2026-11-20',
        natures_of_control: ['ownership-of-shares-50-to-75-percent'],
        identification: { legal_form: 'Private limited company', legal_authority: 'Companies Act 2006', registration_number: '01234567' },
        links: { self: '/company/09876543/persons-with-significant-control/corporate-entity/g1' },
        etag: 'p3',
      },
    ],
  };
}

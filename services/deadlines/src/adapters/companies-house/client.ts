// Companies House Public Data API client: HTTP Basic with the API key as user name and an empty
// password; at most 600 requests per 5 minutes (a sliding window here, and backing off on 429).
import type { CompanyOfficer, CompanyPsc, CompanySearchResult, IdentityVerificationDetails } from '@countinghouse/proto';
import { errorMessage } from '@countinghouse/kit';

export const COMPANIES_HOUSE_DEFAULT_BASE_URL = 'https://api.company-information.service.gov.uk';
export const RATE_LIMIT = { requests: 600, windowMs: 5 * 60 * 1000 } as const;

export class CompaniesHouseError extends Error {
  constructor(
    readonly kind: 'not_found' | 'unauthorised' | 'rate_limited' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'CompaniesHouseError';
  }
}

/** The parts of the company profile (resource companyProfile) the product uses, checked and normalised. */
export interface CompanyProfile {
  companyNumber: string;
  companyName: string;
  companyStatus: string;
  companyType: string;
  dateOfCreation: string | null;
  registeredOffice: string;
  sicCodes: string[];
  ard: { day: number; month: number } | null;
  nextAccountsPeriodEnd: string | null;
  nextAccountsDueOn: string | null;
  lastAccountsMadeUpTo: string | null;
  confirmationNextDue: string | null;
  confirmationNextMadeUpTo: string | null;
}

export interface CompaniesHouseOptions {
  apiKey: string;
  baseUrl?: string;
  /** Longest wait for one 429 before giving up (interactive calls keep it short; the daily job waits). */
  maxRetryWaitMs?: number;
  retries?: number;
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

type Json = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const isoDate = (v: unknown): string | null => {
  const s = str(v);
  return s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : null;
};
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isJson(v) ? v : {});
/** Real answers carry accounting_reference_date's day and month as strings ("31", "03"): accept both. */
const int = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,2}$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) ? n : null;
};

export function parseCompanyProfile(body: unknown): CompanyProfile {
  const b = obj(body);
  const accounts = obj(b.accounts);
  const ardRaw = obj(accounts.accounting_reference_date);
  const day = int(ardRaw.day);
  const month = int(ardRaw.month);
  const next = obj(accounts.next_accounts);
  const last = obj(accounts.last_accounts);
  const cs = obj(b.confirmation_statement);
  const office = obj(b.registered_office_address);
  const number = str(b.company_number);
  if (!number) throw new CompaniesHouseError('unavailable', 'Companies House answered without a company number');
  return {
    companyNumber: number,
    companyName: str(b.company_name) ?? number,
    companyStatus: str(b.company_status) ?? 'unknown',
    companyType: str(b.type) ?? 'unknown',
    dateOfCreation: isoDate(b.date_of_creation),
    registeredOffice: ['premises', 'address_line_1', 'address_line_2', 'locality', 'region', 'postal_code', 'country']
      .map((k) => str(office[k]))
      .filter(Boolean)
      .join(', '),
    sicCodes: Array.isArray(b.sic_codes) ? b.sic_codes.filter((s): s is string => typeof s === 'string') : [],
    ard: day && month && month <= 12 && day <= 31 ? { day, month } : null,
    // next_accounts.due_on is the date to trust; accounts.next_due is deprecated (a fallback only).
    nextAccountsPeriodEnd: isoDate(next.period_end_on) ?? isoDate(accounts.next_made_up_to),
    nextAccountsDueOn: isoDate(next.due_on) ?? isoDate(accounts.next_due),
    lastAccountsMadeUpTo: isoDate(last.made_up_to) ?? isoDate(last.period_end_on),
    confirmationNextDue: isoDate(cs.next_due),
    confirmationNextMadeUpTo: isoDate(cs.next_made_up_to),
  };
}

function items(body: unknown): Json[] {
  const list = obj(body).items;
  return Array.isArray(list) ? list.map(obj) : [];
}

/** date_of_birth {month, year} (the day is never published); numbers or numeric strings. */
function birthMonth(v: unknown): { month: number; year: number } | null {
  const b = obj(v);
  const month = int(b.month);
  const year = typeof b.year === 'number' ? b.year : typeof b.year === 'string' && /^\d{4}$/.test(b.year) ? Number(b.year) : null;
  return month && month <= 12 && year ? { month, year } : null;
}

/** identity_verification_details (ECCTA 2023): null when Companies House does not carry it yet ("not known", not "not required"). */
export function parseIdentityVerification(v: unknown): IdentityVerificationDetails | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const d = obj(v);
  const bodies = d.anti_money_laundering_supervisory_bodies;
  return {
    identity_verified_on: isoDate(d.identity_verified_on),
    appointment_verification_statement_due_on: isoDate(d.appointment_verification_statement_due_on),
    appointment_verification_start_on: isoDate(d.appointment_verification_start_on),
    appointment_verification_end_on: isoDate(d.appointment_verification_end_on),
    authorised_corporate_service_provider_name: str(d.authorised_corporate_service_provider_name),
    anti_money_laundering_supervisory_bodies: Array.isArray(bodies) ? bodies.filter((s): s is string => typeof s === 'string') : [],
    preferred_name: str(d.preferred_name),
    appointment_verification_statement_date: isoDate(d.appointment_verification_statement_date),
  };
}

export function parseOfficers(body: unknown): CompanyOfficer[] {
  return items(body).map((o) => ({
    name: str(o.name) ?? '',
    officer_role: str(o.officer_role) ?? '',
    appointed_on: isoDate(o.appointed_on),
    resigned_on: isoDate(o.resigned_on),
    date_of_birth: birthMonth(o.date_of_birth),
    identity_verification_details: parseIdentityVerification(o.identity_verification_details),
  }));
}

export function parsePscs(body: unknown): CompanyPsc[] {
  return items(body).map((p) => ({
    name: str(p.name) ?? str(p.description) ?? '',
    kind: str(p.kind) ?? '',
    notified_on: isoDate(p.notified_on),
    ceased_on: isoDate(p.ceased_on),
    natures_of_control: Array.isArray(p.natures_of_control) ? p.natures_of_control.filter((s): s is string => typeof s === 'string') : [],
    date_of_birth: birthMonth(p.date_of_birth),
    identity_verification_details: parseIdentityVerification(p.identity_verification_details),
  }));
}

export function parseSearch(body: unknown): CompanySearchResult {
  return {
    items: items(body).map((c) => ({
      company_number: str(c.company_number) ?? '',
      title: str(c.title) ?? '',
      company_status: str(c.company_status) ?? '',
      date_of_creation: isoDate(c.date_of_creation),
      address_snippet: str(c.address_snippet) ?? '',
    })),
  };
}

/** Seconds to wait after a 429: Retry-After, else X-Ratelimit-Reset (epoch seconds), else 10 s. */
export function retryAfterMs(headers: Headers, nowMs: number): number {
  const ra = headers.get('retry-after');
  if (ra && /^\d+$/.test(ra.trim())) return Number(ra) * 1000;
  if (ra) {
    const at = Date.parse(ra);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  const reset = headers.get('x-ratelimit-reset');
  if (reset && /^\d+$/.test(reset.trim())) return Math.max(0, Number(reset) * 1000 - nowMs);
  return 10_000;
}

export class CompaniesHouseClient {
  private readonly baseUrl: string;
  private readonly auth: string;
  private readonly sent: number[] = [];
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

  constructor(private readonly o: CompaniesHouseOptions) {
    this.baseUrl = (o.baseUrl || COMPANIES_HOUSE_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.auth = `Basic ${Buffer.from(`${o.apiKey}:`).toString('base64')}`;
    this.fetchImpl = o.fetchImpl ?? fetch;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = o.now ?? Date.now;
  }

  /** Wait for room in the 600-per-5-minutes window (our own count, so the limit is rarely hit at all). */
  private async takeSlot(): Promise<void> {
    for (;;) {
      const now = this.now();
      while (this.sent.length && this.sent[0]! <= now - RATE_LIMIT.windowMs) this.sent.shift();
      if (this.sent.length < RATE_LIMIT.requests) {
        this.sent.push(now);
        return;
      }
      const wait = this.sent[0]! + RATE_LIMIT.windowMs - now;
      if (wait > (this.o.maxRetryWaitMs ?? 60_000)) throw new CompaniesHouseError('rate_limited', 'Companies House request limit reached');
      await this.sleep(wait);
    }
  }

  private async get(path: string, opts: { notFoundAsEmpty?: boolean } = {}): Promise<unknown> {
    const retries = this.o.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      await this.takeSlot();
      let res: Response;
      try {
        res = await this.fetchImpl(`${this.baseUrl}${path}`, {
          headers: { authorization: this.auth, accept: 'application/json' },
          signal: AbortSignal.timeout(10_000),
        });
      } catch (err) {
        if (attempt < retries) {
          await this.sleep(500 * 2 ** attempt);
          continue;
        }
        throw new CompaniesHouseError('unavailable', `Companies House unreachable: ${errorMessage(err)}`);
      }
      if (res.status === 200) return res.json();
      await res.body?.cancel().catch(() => {});
      if (res.status === 404) {
        if (opts.notFoundAsEmpty) return { items: [] };
        throw new CompaniesHouseError('not_found', 'not found');
      }
      if (res.status === 401 || res.status === 403) throw new CompaniesHouseError('unauthorised', 'Companies House refused the API key');
      if (res.status === 429) {
        const wait = retryAfterMs(res.headers, this.now());
        if (attempt >= retries || wait > (this.o.maxRetryWaitMs ?? 60_000))
          throw new CompaniesHouseError('rate_limited', 'Companies House request limit reached');
        await this.sleep(wait);
        continue;
      }
      if (res.status >= 500 && attempt < retries) {
        await this.sleep(500 * 2 ** attempt);
        continue;
      }
      throw new CompaniesHouseError('unavailable', `Companies House answered ${res.status}`);
    }
  }

  async companyProfile(number: string): Promise<CompanyProfile> {
    return parseCompanyProfile(await this.get(`/company/${encodeURIComponent(number)}`));
  }

  async officers(number: string): Promise<CompanyOfficer[]> {
    return parseOfficers(await this.get(`/company/${encodeURIComponent(number)}/officers?items_per_page=100`, { notFoundAsEmpty: true }));
  }

  async pscs(number: string): Promise<CompanyPsc[]> {
    return parsePscs(
      await this.get(`/company/${encodeURIComponent(number)}/persons-with-significant-control?items_per_page=100`, {
        notFoundAsEmpty: true,
      }),
    );
  }

  async search(q: string): Promise<CompanySearchResult> {
    return parseSearch(await this.get(`/search/companies?q=${encodeURIComponent(q)}&items_per_page=20`));
  }
}

import { errorMessage } from '@countinghouse/kit';
import type { GhlContact } from '@countinghouse/proto';
import { retryDelayMs } from '../domain/ghl.js';

export const GHL_DEFAULT_BASE_URL = 'https://services.leadconnectorhq.com';
export const GHL_API_VERSION = '2021-07-28';

export type GhlErrorKind = 'unauthorised' | 'unavailable' | 'bad_response';

export class GhlError extends Error {
  constructor(
    readonly kind: GhlErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'GhlError';
  }
}

export interface GhlClientOptions {
  apiKey: string;
  locationId: string;
  baseUrl?: string;
  /** Contacts per page (pageLimit); the search allows at most 500. */
  pageSize?: number;
  /** Retries of one request after a 429, a 5xx or a network failure. */
  maxRetries?: number;
  timeoutMs?: number;
  /** A guard against a cursor that never ends. */
  maxPages?: number;
  sleep?: (ms: number) => Promise<void>;
}

interface ContactsPage {
  contacts: GhlContact[];
  /** The search's total matches (`total` in its answers; `count` in the published schema). */
  total?: number;
  /** The last contact's searchAfter cursor, when the answer carries one. */
  searchAfter?: unknown[];
}

/** The search's page-based paging reaches this many records; beyond it only searchAfter works. */
const PAGE_PAGING_LIMIT = 10_000;

/**
 * The LeadConnector (GoHighLevel API v2) contacts client. `POST /contacts/search` (GET /contacts/ is
 * deprecated in GoHighLevel's own API file) with `{ locationId, pageLimit, page }`, then the cursor
 * the previous page's last contact carries (`searchAfter`, without `page`: the documented way past
 * 10,000 records), Bearer key and the Version header. 429 waits for Retry-After, 5xx and network
 * failures back off and retry.
 */
export class GhlClient {
  private readonly baseUrl: string;
  private readonly pageSize: number;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly maxPages: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly o: GhlClientOptions) {
    this.baseUrl = (o.baseUrl || GHL_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.pageSize = Math.min(500, Math.max(1, o.pageSize ?? 100));
    this.maxRetries = o.maxRetries ?? 4;
    this.timeoutMs = o.timeoutMs ?? 15_000;
    this.maxPages = o.maxPages ?? 2_000;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Every contact of the location, page by page. */
  async fetchAllContacts(): Promise<GhlContact[]> {
    const all = new Map<string, GhlContact>();
    const seenCursors = new Set<string>();
    let cursor: unknown[] | null = null;
    for (let page = 1; page <= this.maxPages; page++) {
      const body: Record<string, unknown> = { locationId: this.o.locationId, pageLimit: this.pageSize };
      if (cursor) body.searchAfter = cursor;
      else body.page = page;
      const res = await this.request(body);
      for (const c of res.contacts) all.set(c.id, c);
      const finished =
        res.contacts.length === 0 || (typeof res.total === 'number' ? all.size >= res.total : res.contacts.length < this.pageSize);
      if (finished) break;
      if (res.searchAfter) {
        const key = JSON.stringify(res.searchAfter);
        if (seenCursors.has(key)) break;
        seenCursors.add(key);
        cursor = res.searchAfter;
      } else if (cursor || page * this.pageSize >= PAGE_PAGING_LIMIT) {
        throw new GhlError('bad_response', 'GoHighLevel gave no cursor to page past its first 10,000 contacts.');
      }
    }
    return [...all.values()];
  }

  private async request(body: Record<string, unknown>): Promise<ContactsPage> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${this.baseUrl}/contacts/search`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${this.o.apiKey}`,
            Version: GHL_API_VERSION,
            Accept: 'application/json',
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        if (attempt > this.maxRetries) throw new GhlError('unavailable', `GoHighLevel could not be reached: ${errorMessage(err)}`);
        await this.sleep(retryDelayMs(attempt, null));
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        await res.body?.cancel();
        throw new GhlError('unauthorised', `GoHighLevel refused the API key (${res.status}).`);
      }
      if (res.status === 429 || res.status >= 500) {
        const retryAfter = res.headers.get('retry-after');
        await res.body?.cancel();
        if (attempt > this.maxRetries) throw new GhlError('unavailable', `GoHighLevel answered ${res.status} after ${attempt} attempts.`);
        await this.sleep(retryDelayMs(attempt, retryAfter));
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new GhlError('bad_response', `GoHighLevel answered ${res.status}.`);
      }
      let json: unknown;
      try {
        json = await res.json();
      } catch {
        throw new GhlError('bad_response', 'GoHighLevel answered with something that is not JSON.');
      }
      return parsePage(json);
    }
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Keep the documented fields, tolerate extra ones, refuse a body without a contacts list. */
export function parsePage(json: unknown): ContactsPage {
  if (!isRecord(json) || !Array.isArray(json.contacts)) throw new GhlError('bad_response', 'GoHighLevel answered without a contacts list.');
  const body = json;
  const list: unknown[] = json.contacts;
  const contacts: GhlContact[] = [];
  let searchAfter: unknown[] | undefined;
  for (const raw of list) {
    // (a contact that is not an object has no id either: skipped, as one without an id)
    if (!isRecord(raw)) continue;
    const id = str(raw.id);
    if (!id) continue;
    contacts.push({
      id,
      contactName: str(raw.contactName) ?? str(raw.name),
      firstName: str(raw.firstName) ?? str(raw.firstNameRaw),
      lastName: str(raw.lastName) ?? str(raw.lastNameRaw),
      email: str(raw.email),
      phone: str(raw.phone),
      companyName: str(raw.companyName) ?? str(raw.businessName),
      tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : [],
      dateAdded: str(raw.dateAdded),
    });
    searchAfter = Array.isArray(raw.searchAfter) && raw.searchAfter.length > 0 ? raw.searchAfter : undefined;
  }
  const total = typeof body.total === 'number' ? body.total : typeof body.count === 'number' ? body.count : undefined;
  return { contacts, total, searchAfter };
}

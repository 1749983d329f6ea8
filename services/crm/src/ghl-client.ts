import type { GhlContact } from '@countinghouse/proto';
import { retryDelayMs } from './domain/ghl.js';

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
  /** Contacts per page; the API allows at most 100. */
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
  meta?: { total?: number; nextPageUrl?: string | null; startAfterId?: string | null; startAfter?: number | null };
}

/**
 * The LeadConnector (GoHighLevel API v2) contacts client: GET /contacts/?locationId=…&limit=100, paged
 * with the startAfterId / startAfter cursor the previous page's meta returns, Bearer key and the
 * Version header. 429 waits for Retry-After, 5xx and network failures back off and retry.
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
    this.pageSize = Math.min(100, Math.max(1, o.pageSize ?? 100));
    this.maxRetries = o.maxRetries ?? 4;
    this.timeoutMs = o.timeoutMs ?? 15_000;
    this.maxPages = o.maxPages ?? 2_000;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Every contact of the location, page by page. */
  async fetchAllContacts(): Promise<GhlContact[]> {
    const all: GhlContact[] = [];
    const seenCursors = new Set<string>();
    let cursor: { startAfterId: string; startAfter: number | null } | null = null;
    for (let page = 0; page < this.maxPages; page++) {
      const url = new URL(`${this.baseUrl}/contacts/`);
      url.searchParams.set('locationId', this.o.locationId);
      url.searchParams.set('limit', String(this.pageSize));
      if (cursor) {
        url.searchParams.set('startAfterId', cursor.startAfterId);
        if (cursor.startAfter !== null) url.searchParams.set('startAfter', String(cursor.startAfter));
      }
      const body = await this.request(url);
      all.push(...body.contacts);
      const meta = body.meta ?? {};
      const nextId = meta.startAfterId ?? body.contacts.at(-1)?.id ?? null;
      const finished =
        body.contacts.length === 0 ||
        meta.nextPageUrl === null ||
        (meta.nextPageUrl === undefined && body.contacts.length < this.pageSize) ||
        (typeof meta.total === 'number' && all.length >= meta.total) ||
        !nextId ||
        seenCursors.has(nextId);
      if (finished) return all;
      seenCursors.add(nextId);
      cursor = { startAfterId: nextId, startAfter: typeof meta.startAfter === 'number' ? meta.startAfter : null };
    }
    return all;
  }

  private async request(url: URL): Promise<ContactsPage> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { Authorization: `Bearer ${this.o.apiKey}`, Version: GHL_API_VERSION, Accept: 'application/json' },
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        if (attempt > this.maxRetries) throw new GhlError('unavailable', `GoHighLevel could not be reached: ${(err as Error).message}`);
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

/** Keep the documented fields, tolerate extra ones, refuse a body without a contacts list. */
export function parsePage(json: unknown): ContactsPage {
  const body = json as { contacts?: unknown; meta?: Record<string, unknown> };
  if (!body || !Array.isArray(body.contacts)) throw new GhlError('bad_response', 'GoHighLevel answered without a contacts list.');
  const contacts: GhlContact[] = [];
  for (const raw of body.contacts as Array<Record<string, unknown>>) {
    const id = str(raw?.id);
    if (!id) continue;
    contacts.push({
      id,
      contactName: str(raw.contactName) ?? str(raw.name),
      firstName: str(raw.firstName),
      lastName: str(raw.lastName),
      email: str(raw.email),
      phone: str(raw.phone),
      companyName: str(raw.companyName),
      tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : [],
      dateAdded: str(raw.dateAdded),
    });
  }
  const m = body.meta ?? {};
  return {
    contacts,
    meta: {
      total: typeof m.total === 'number' ? m.total : undefined,
      nextPageUrl: m.nextPageUrl === null ? null : (str(m.nextPageUrl) ?? undefined),
      startAfterId: str(m.startAfterId),
      startAfter: typeof m.startAfter === 'number' ? m.startAfter : null,
    },
  };
}

import { vi } from 'vitest';

export interface Call {
  method: string;
  path: string;
  /** The query string ('?status=open'), '' without one. */
  search: string;
  body: unknown;
  credentials: RequestCredentials;
}

type Handler = (call: Call) => Response | Promise<Response>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
export const apiError = (status: number, code: string, message: string) => json(status, { error: { code, message } });

/**
 * Replaces global fetch with a route table ('POST /api/identity/admin/login'). A handler may be
 * a list: each call takes the next one (the last repeats). Unknown routes answer 404 so a test
 * never reaches the network. Returns the recorded calls.
 */
export function mockFetch(routes: Record<string, Handler | Handler[]>) {
  const calls: Call[] = [];
  const counts = new Map<string, number>();
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const call: Call = {
      method: request.method,
      path: url.pathname,
      search: url.search,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      credentials: request.credentials,
    };
    calls.push(call);
    const key = `${call.method} ${call.path}`;
    const entry = routes[key];
    if (!entry) return apiError(404, 'NOT_FOUND', `no mock for ${key}`);
    const list = Array.isArray(entry) ? entry : [entry];
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    const handler = list[Math.min(n, list.length - 1)]!;
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}

export const PUBLIC_CONFIG = {
  demoMode: false,
  maintenance: false,
  practice: { name: 'Ledger & Co Accountants', phone: '020 7946 0000', email: 'hello@ledger.example' },
};

// Small helpers the browser tests share for arranging state through the API.

/** A JSON call with a bearer token; throws with the status and body unless it is 2xx. */
export async function apiJson<T>(baseUrl: string, bearer: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** expect.poll for beforeAll (where vitest does not allow it). */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms: ${check.toString()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

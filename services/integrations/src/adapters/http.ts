import { PROVIDER_LABELS, type IntegrationType } from '@countinghouse/proto';
import { retryAtAfterLimit } from '../domain/rate-limit.js';

/**
 * Why a provider call failed. Retrying helps with rate_limited, unavailable and bad_response; the
 * others need a person: invalid_grant and unauthorized mean the grant is gone (connect again),
 * refused means the request itself was turned down (a setup problem).
 */
export type ProviderFailure = 'invalid_grant' | 'unauthorized' | 'rate_limited' | 'unavailable' | 'bad_response' | 'refused';

/** A provider call that failed. The message names the provider, the step and the status only: never a token or a body. */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    readonly provider: IntegrationType,
    readonly failure: ProviderFailure,
    step: string,
    readonly status?: number,
    /** When the provider (its 429's Retry-After, Intuit's 60 s) or our own call budget lets us try again. */
    readonly retryAt?: Date,
  ) {
    super(`${PROVIDER_LABELS[provider]} ${step}: ${failure}${status ? ` (HTTP ${status})` : ''}`);
  }
  get retryable(): boolean {
    return this.failure === 'rate_limited' || this.failure === 'unavailable' || this.failure === 'bad_response';
  }
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** A field of a provider's JSON answer, whatever it is (undefined when the answer is not an object). */
export function fieldOf(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? Reflect.get(body, key) : undefined;
}

/** The OAuth `error` field, reduced to its code (providers may echo input in descriptions). */
function oauthErrorCode(body: unknown): string {
  const e = fieldOf(body, 'error');
  return typeof e === 'string' && /^[a-z_]{1,50}$/.test(e) ? e : '';
}

function failureOfStatus(status: number, body: unknown, isTokenEndpoint: boolean): ProviderFailure {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  if (isTokenEndpoint) return oauthErrorCode(body) === 'invalid_grant' ? 'invalid_grant' : 'refused';
  if (status === 401 || status === 403) return 'unauthorized';
  return 'refused';
}

export interface ProviderRequest {
  provider: IntegrationType;
  step: string;
  url: string;
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Token endpoints answer errors in the OAuth shape ({ error: 'invalid_grant' }). */
  tokenEndpoint?: boolean;
  /** Whether an empty body is a success (revocation). */
  expectBody?: boolean;
  /** Runs before the call: takes it from the organisation's budget, or throws a rate_limited ProviderError. */
  beforeCall?: () => Promise<void>;
  /** The clock the retry time is computed on (tests inject one). */
  now?: () => Date;
  /** One call's time limit (INTEGRATIONS_PROVIDER_TIMEOUT_MS); 20 s when not given. */
  timeoutMs?: number;
}

/**
 * A 429 whose wait is this short is waited out in place, the call made again (at most
 * INLINE_429_TRIES times), rather than the whole sync given back to the queue and started over: a
 * practice-wide sync against Xero's app-wide limit (Retry-After: 1) otherwise restarts each
 * organisation's run from its first call and can starve. Longer waits go back to the queue.
 */
export const INLINE_429_WAIT_MS = 5_000;
const INLINE_429_TRIES = 3;

/** One HTTP call to a provider, classified: a JSON body on 2xx, else a ProviderError. */
export async function providerCall<T = unknown>(r: ProviderRequest): Promise<T> {
  for (let waited = 0; ; waited++) {
    try {
      // The provider's JSON is taken to be the shape the caller declares (its fields optional, each
      // checked where it is used): the one place an answer gets its type.
      return (await providerCallOnce(r)) as T;
    } catch (err) {
      const now = (r.now ?? (() => new Date()))().getTime();
      const wait = err instanceof ProviderError && err.status === 429 && err.retryAt ? err.retryAt.getTime() - now : Infinity;
      if (waited >= INLINE_429_TRIES || wait > INLINE_429_WAIT_MS) throw err;
      // A little jitter, so callers told the same second do not all come back in the same instant.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait) + Math.floor(Math.random() * 250)));
    }
  }
}

async function providerCallOnce(r: ProviderRequest): Promise<object | undefined> {
  await r.beforeCall?.();
  let res: Response;
  try {
    res = await fetch(r.url, {
      method: r.method ?? 'GET',
      headers: { accept: 'application/json', ...r.headers },
      body: r.body,
      redirect: 'error',
      signal: AbortSignal.timeout(r.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch {
    throw new ProviderError(r.provider, 'unavailable', r.step);
  }
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!res.ok) {
    const failure = failureOfStatus(res.status, body, r.tokenEndpoint ?? false);
    const retryAfter = res.headers.get('retry-after');
    // A 429 always has a time to come back; a 503 only when the provider says one.
    const retryAt =
      res.status === 429 || (res.status === 503 && retryAfter)
        ? retryAtAfterLimit(r.provider, retryAfter, (r.now ?? (() => new Date()))())
        : undefined;
    throw new ProviderError(r.provider, failure, r.step, res.status, retryAt);
  }
  if (r.expectBody === false) return undefined;
  if (body === null || typeof body !== 'object') throw new ProviderError(r.provider, 'bad_response', r.step, res.status);
  return body;
}

export function basicAuth(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
}

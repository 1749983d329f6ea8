import type { Logger } from 'pino';
import type { HmrcSettings } from '../config.js';
import { basicAuth, fieldOf } from './http.js';

/**
 * HMRC's APIs (FLOW.md): every call has `Authorization: Bearer`, `Accept: application/vnd.hmrc.X.Y+json`
 * of the API's version and, with a body, `Content-Type: application/json`. Every call is recorded
 * (method, path with the NINO masked, status, X-CorrelationId) through `record`; nothing personal is
 * logged: no NINO, postcode, figures, tokens or bodies.
 */
export type HmrcFailure = 'unauthorized' | 'refused' | 'not_found' | 'unavailable' | 'invalid_grant';

export class HmrcError extends Error {
  override name = 'HmrcError';
  constructor(
    readonly failure: HmrcFailure,
    readonly step: string,
    readonly status?: number,
    /** HMRC's error code (e.g. RELATIONSHIP_NOT_FOUND), when its body has one. */
    readonly code?: string,
  ) {
    super(`HMRC ${step}: ${failure}${status ? ` (HTTP ${status})` : ''}${code ? ` ${code}` : ''}`);
  }
}

export interface HmrcCallRecord {
  method: string;
  path: string;
  status: number;
  correlationId: string | null;
  clientId: string | null;
}

export interface HmrcAnswer<T = unknown> {
  status: number;
  body: T;
  location: string | null;
  correlationId: string | null;
}

export interface HmrcCallOptions {
  step: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** The API version in Accept (2.0, 3.0, 5.0, 9.0). */
  version: string;
  accessToken: string;
  body?: unknown;
  /** The sixteen fraud prevention headers (not required by the Agent Authorisation API). */
  fraudHeaders?: Record<string, string>;
  /** For the call record only. */
  clientId?: string | null;
  /** Statuses that are answers, not failures (404 of a relationship check). */
  accept?: number[];
}

/** A path with every NINO masked, for records and logs. */
export function maskPath(path: string): string {
  return path.replace(/[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z][0-9]{6}[A-D]/g, '{nino}').replace(/\?.*$/, '');
}

export interface HmrcClient {
  call<T = unknown>(o: HmrcCallOptions): Promise<HmrcAnswer<T>>;
  exchangeCode(code: string): Promise<HmrcTokens>;
  refresh(refreshToken: string): Promise<HmrcTokens>;
  authorizeUrl(state: string): string;
}

export interface HmrcTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: string | null;
}

function errorCode(body: unknown): string | undefined {
  const c = fieldOf(body, 'code');
  return typeof c === 'string' && /^[A-Z_]{1,80}$/.test(c) ? c : undefined;
}

export function hmrcClient(s: HmrcSettings, logger: Logger, record: (r: HmrcCallRecord) => Promise<void>): HmrcClient {
  async function send(o: HmrcCallOptions, url: string, init: RequestInit): Promise<HmrcAnswer> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(s.timeoutMs) });
    } catch {
      await record({ method: o.method, path: maskPath(o.path), status: 0, correlationId: null, clientId: o.clientId ?? null });
      throw new HmrcError('unavailable', o.step);
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    const correlationId = res.headers.get('x-correlationid');
    const path = maskPath(o.path);
    await record({ method: o.method, path, status: res.status, correlationId, clientId: o.clientId ?? null });
    logger.info({ hmrc: { method: o.method, path, status: res.status, correlationId } }, 'hmrc call');
    return { status: res.status, body, location: res.headers.get('location'), correlationId };
  }

  async function tokens(step: string, form: Record<string, string>): Promise<HmrcTokens> {
    const a = await send({ step, method: 'POST', path: '/oauth/token', version: '', accessToken: '' }, s.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(s.clientId, s.clientSecret) },
      body: new URLSearchParams({ ...form, client_id: s.clientId, client_secret: s.clientSecret }).toString(),
    });
    if (a.status === 400 || a.status === 401) {
      const e = fieldOf(a.body, 'error');
      throw new HmrcError(e === 'invalid_grant' || a.status === 401 ? 'invalid_grant' : 'refused', step, a.status);
    }
    if (a.status >= 300) throw new HmrcError(a.status >= 500 ? 'unavailable' : 'refused', step, a.status);
    const accessToken = fieldOf(a.body, 'access_token');
    const refreshToken = fieldOf(a.body, 'refresh_token');
    if (typeof accessToken !== 'string' || typeof refreshToken !== 'string') throw new HmrcError('unavailable', step, a.status);
    const expiresIn = Number(fieldOf(a.body, 'expires_in'));
    const scope = fieldOf(a.body, 'scope');
    return {
      accessToken,
      refreshToken,
      // HMRC's access tokens last four hours.
      expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 14_400,
      scope: typeof scope === 'string' ? scope : null,
    };
  }

  return {
    authorizeUrl(state) {
      const u = new URL(s.authUrl);
      u.searchParams.set('response_type', 'code');
      u.searchParams.set('client_id', s.clientId);
      u.searchParams.set('scope', s.scopes);
      u.searchParams.set('state', state);
      u.searchParams.set('redirect_uri', s.redirectUri);
      return u.toString();
    },
    exchangeCode: (code) => tokens('code exchange', { grant_type: 'authorization_code', code, redirect_uri: s.redirectUri }),
    refresh: (refreshToken) => tokens('token refresh', { grant_type: 'refresh_token', refresh_token: refreshToken }),
    async call<T>(o: HmrcCallOptions): Promise<HmrcAnswer<T>> {
      const headers: Record<string, string> = {
        accept: `application/vnd.hmrc.${o.version}+json`,
        authorization: `Bearer ${o.accessToken}`,
        ...o.fraudHeaders,
      };
      // The Agent Authorisation API also requires Content-Type on its bodiless DELETE.
      if (o.body !== undefined || o.method === 'DELETE') headers['content-type'] = 'application/json';
      const a = await send(o, `${s.baseUrl}${o.path}`, {
        method: o.method,
        headers,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
      });
      // HMRC's JSON is taken to be the shape the caller declares (each field checked where it is used).
      if ((a.status >= 200 && a.status < 300) || o.accept?.includes(a.status)) return a as HmrcAnswer<T>;
      const code = errorCode(a.body);
      if (a.status === 401) throw new HmrcError('unauthorized', o.step, a.status, code);
      if (a.status === 404) throw new HmrcError('not_found', o.step, a.status, code);
      if (a.status >= 500 || a.status === 429) throw new HmrcError('unavailable', o.step, a.status, code);
      throw new HmrcError('refused', o.step, a.status, code);
    },
  };
}

import type { ProviderSettings } from '../config.js';
import { basicAuth, providerCall, ProviderError } from './http.js';

/** A grant as the token endpoint gives it. Lives in memory only until it is encrypted. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** Seconds */
  expiresIn: number;
  /** Seconds (Intuit's x_refresh_token_expires_in); null when the provider does not say. */
  refreshExpiresIn: number | null;
  scope: string | null;
}

interface TokenResponse {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  x_refresh_token_expires_in?: unknown;
  scope?: unknown;
}

/** The provider's consent page, with our state and (Xero) the PKCE challenge. */
export function authorizeUrl(s: ProviderSettings, state: string, codeChallenge: string | null): string {
  const u = new URL(s.authUrl);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', s.clientId);
  u.searchParams.set('redirect_uri', s.redirectUri);
  u.searchParams.set('scope', s.scopes);
  u.searchParams.set('state', state);
  if (codeChallenge) {
    u.searchParams.set('code_challenge', codeChallenge);
    u.searchParams.set('code_challenge_method', 'S256');
  }
  return u.toString();
}

async function tokenRequest(s: ProviderSettings, step: string, form: Record<string, string>): Promise<TokenSet> {
  const body = await providerCall<TokenResponse>({
    provider: s.provider,
    step,
    url: s.tokenUrl,
    method: 'POST',
    tokenEndpoint: true,
    timeoutMs: s.timeoutMs,
    headers: { authorization: basicAuth(s.clientId, s.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const expiresIn = Number(body.expires_in);
  if (typeof body.access_token !== 'string' || !body.access_token || typeof body.refresh_token !== 'string' || !body.refresh_token) {
    throw new ProviderError(s.provider, 'bad_response', step);
  }
  const refreshIn = Number(body.x_refresh_token_expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 1800,
    refreshExpiresIn: Number.isFinite(refreshIn) && refreshIn > 0 ? refreshIn : null,
    scope: typeof body.scope === 'string' ? body.scope : null,
  };
}

export function exchangeCode(s: ProviderSettings, code: string, codeVerifier: string | null): Promise<TokenSet> {
  return tokenRequest(s, 'code exchange', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: s.redirectUri,
    ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
  });
}

/** Both providers rotate the refresh token: the answer's refresh token replaces the stored one. */
export function refreshGrant(s: ProviderSettings, refreshToken: string): Promise<TokenSet> {
  return tokenRequest(s, 'token refresh', { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** Revoke the grant at the provider (Xero: form body; Intuit: JSON body). Revoking the refresh token ends both. */
export async function revokeGrant(s: ProviderSettings, refreshToken: string): Promise<void> {
  const json = s.provider === 'quickbooks';
  await providerCall({
    provider: s.provider,
    step: 'revocation',
    url: s.revokeUrl,
    timeoutMs: s.timeoutMs,
    method: 'POST',
    tokenEndpoint: true,
    expectBody: false,
    headers: {
      authorization: basicAuth(s.clientId, s.clientSecret),
      'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
    },
    body: json ? JSON.stringify({ token: refreshToken }) : new URLSearchParams({ token: refreshToken }).toString(),
  });
}

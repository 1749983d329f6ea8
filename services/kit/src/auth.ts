import { EVENT_TYPES, MESSAGES, SESSION, type Actor, type EventEnvelope, type Role, type SecondFactorUse } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { importPKCS8, importSPKI, jwtVerify, SignJWT, errors as joseErrors, type CryptoKey, type KeyObject } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import { AppError } from './errors.js';

export const ACCESS_COOKIE = 'ch_at';
const ISSUER = 'countinghouse';
const AUDIENCE = 'countinghouse';

export type PrincipalKind = 'admin' | 'user';

/** Who is asking, as every service sees it after verifying the token itself. */
export interface Principal {
  kind: PrincipalKind;
  /** admin id or user id */
  id: string;
  sessionId: string;
  /** Active roles at the time the token was issued; revocations cut tokens short. */
  roles: Role[];
  name: string;
  issuedAt: number;
  expiresAt: number;
  /** The practice requires a second factor of this person and they have none yet (issue 32): only routes open during enrolment answer. */
  enrolmentPending?: boolean;
  /** The second factor used when this session signed in (issue 32): Gov-Client-Multi-Factor's data. */
  secondFactor?: SecondFactorUse;
  /** The caller's address as the service saw it (behind the gateway: its x-forwarded-for); the audit trail records it. */
  ip?: string;
}

export interface AccessClaims {
  sub: string;
  sid: string;
  knd: PrincipalKind;
  roles: Role[];
  name: string;
  /** Set while the person must enrol a second factor (Principal.enrolmentPending). */
  enr?: boolean;
  /** The second factor this session signed in with (Principal.secondFactor). */
  mfa?: SecondFactorUse;
}

export function generateSigningKeys(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** Signs access tokens; only identity holds the private key. */
export class TokenSigner {
  private constructor(private readonly key: CryptoKey | KeyObject) {}
  static async fromPem(privateKeyPem: string) {
    return new TokenSigner(await importPKCS8(privateKeyPem, 'EdDSA'));
  }
  async sign(claims: AccessClaims, ttlSeconds: number = SESSION.accessTokenSeconds): Promise<{ token: string; expiresAt: number }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + ttlSeconds;
    const token = await new SignJWT({
      sid: claims.sid,
      knd: claims.knd,
      roles: claims.roles,
      name: claims.name,
      ...(claims.enr ? { enr: true } : {}),
      ...(claims.mfa ? { mfa: claims.mfa } : {}),
    })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: exp };
  }
}

/**
 * Sessions and people whose access was withdrawn. Fed by identity's events on every instance, so a
 * revoked session is refused at once even though its short-lived token has not expired.
 */
export class RevocationList {
  private sessions = new Map<string, number>();
  private subjects = new Map<string, number>();

  revokeSession(sessionId: string, until: number) {
    const prev = this.sessions.get(sessionId) ?? 0;
    if (until > prev) this.sessions.set(sessionId, until);
  }
  /** Tokens for this subject issued before `issuedBefore` (seconds) are refused. */
  revokeSubjectBefore(subjectId: string, issuedBefore: number) {
    const prev = this.subjects.get(subjectId) ?? 0;
    if (issuedBefore > prev) this.subjects.set(subjectId, issuedBefore);
  }
  /** The instant (seconds) before which everything issued to this subject is refused, if it was cut off. */
  subjectCutOff(subjectId: string): number | undefined {
    return this.subjects.get(subjectId);
  }
  isRevoked(p: Pick<Principal, 'sessionId' | 'id' | 'issuedAt'>): boolean {
    if (this.sessions.has(p.sessionId)) return true;
    const before = this.subjects.get(p.id);
    return before !== undefined && p.issuedAt < before;
  }
  /** Entries older than the longest token life can go. */
  prune(nowSeconds = Math.floor(Date.now() / 1000)) {
    for (const [k, until] of this.sessions) if (until < nowSeconds) this.sessions.delete(k);
    for (const [k, t] of this.subjects) if (t + SESSION.accessTokenSeconds < nowSeconds) this.subjects.delete(k);
  }
}

/**
 * How far back a verifier in another process replays identity's events at start: the whole life of an
 * access token, plus five minutes for clocks and a slow relay. Revocations are events of identity.
 */
export const REVOCATION_REPLAY_MS = (SESSION.accessTokenSeconds + 5 * 60) * 1000;

/** Apply one of identity's events to a revocation list (other events are ignored). */
export function applyRevocationEvent(list: RevocationList, e: EventEnvelope): void {
  // (the data is checked against its proto schema, as every consumer's is: a malformed one revokes nothing)
  if (e.type === 'identity.session_revoked') {
    const d = e.data;
    if (Value.Check(EVENT_TYPES['identity.session_revoked'], d)) list.revokeSession(d.sessionId, d.until);
  } else if (e.type === 'identity.subject_access_revoked') {
    const d = e.data;
    if (Value.Check(EVENT_TYPES['identity.subject_access_revoked'], d)) list.revokeSubjectBefore(d.subjectId, d.issuedBefore);
  }
}

interface CacheEntry {
  principal: Principal;
}

function isSecondFactorUse(o: unknown): o is SecondFactorUse {
  return (
    typeof o === 'object' &&
    o !== null &&
    'type' in o &&
    (o.type === 'TOTP' || o.type === 'AUTH_CODE' || o.type === 'OTHER') &&
    'at' in o &&
    typeof o.at === 'number' &&
    'reference' in o &&
    typeof o.reference === 'string'
  );
}

/** Verifies access tokens with the public key. A small cache skips repeat signature checks. */
export class TokenVerifier {
  private cache = new Map<string, CacheEntry>();
  private constructor(
    private readonly key: CryptoKey | KeyObject,
    readonly revocations: RevocationList,
  ) {}

  static async fromPem(publicKeyPem: string, revocations = new RevocationList()) {
    return new TokenVerifier(await importSPKI(publicKeyPem, 'EdDSA'), revocations);
  }

  /** Returns the principal, or throws AppError UNAUTHENTICATED / SESSION_EXPIRED. */
  async verify(token: string): Promise<Principal> {
    const now = Math.floor(Date.now() / 1000);
    let principal = this.cache.get(token)?.principal;
    if (!principal || principal.expiresAt <= now) {
      if (principal) this.cache.delete(token);
      try {
        const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['EdDSA'] });
        const { sub, sid, knd, roles, name, iat, exp, enr, mfa } = payload;
        if (
          typeof sub !== 'string' ||
          typeof sid !== 'string' ||
          (knd !== 'admin' && knd !== 'user') ||
          !Array.isArray(roles) ||
          !roles.every((r) => typeof r === 'string') ||
          typeof iat !== 'number' ||
          typeof exp !== 'number'
        ) {
          throw new AppError('UNAUTHENTICATED', MESSAGES.authenticationError);
        }
        principal = {
          kind: knd,
          id: sub,
          sessionId: sid,
          // (identity signs Role[]; each is checked to be a string only, so a role added later does not refuse the token)
          roles: roles as AccessClaims['roles'],
          name: String(name ?? ''),
          issuedAt: iat,
          expiresAt: exp,
          ...(enr === true ? { enrolmentPending: true } : {}),
          ...(isSecondFactorUse(mfa) ? { secondFactor: mfa } : {}),
        };
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (err instanceof joseErrors.JWTExpired) throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired);
        throw new AppError('UNAUTHENTICATED', MESSAGES.authenticationError);
      }
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(token, { principal });
    }
    if (this.revocations.isRevoked(principal)) throw new AppError('SESSION_EXPIRED', MESSAGES.adminSessionExpired);
    return principal;
  }
}

/** The token of a request: bearer header first (API clients), else the httpOnly cookie. */
export function tokenFrom(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (h && h.startsWith('Bearer ')) return h.slice(7).trim() || null;
  const c = request.cookies?.[ACCESS_COOKIE];
  return c || null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function requireAuth(request: FastifyRequest): Principal {
  if (!request.principal) throw request.authError ?? new AppError('UNAUTHENTICATED', MESSAGES.authenticationError);
  return request.principal;
}

/**
 * A preHandler that lets through only a verified principal holding one of the roles (any role when
 * none are given), optionally of one kind (admin session or user session).
 */
export function requireRole(roles: readonly Role[] = [], opts: { kind?: PrincipalKind; duringEnrolment?: boolean } = {}) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply) {
    const p = requireAuth(request);
    // A staff member who must set up two-factor sign-in first reaches only the routes that allow it (issue 32).
    if (p.enrolmentPending && !opts.duringEnrolment)
      throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED', MESSAGES.twoFactorEnrolmentRequired);
    if (opts.kind && p.kind !== opts.kind) throw new AppError('FORBIDDEN', MESSAGES.noAccessToArea);
    if (roles.length > 0 && !p.roles.some((r) => roles.includes(r))) throw new AppError('FORBIDDEN', MESSAGES.noAccessToArea);
  };
}

/** The envelope's actor for a person's action: id, name and address, so the audit trail can say who and from where. */
export function auditActor(p: Principal): Actor {
  return { kind: p.kind, id: p.id, ...(p.name ? { name: p.name } : {}), ...(p.ip ? { ip: p.ip } : {}) };
}

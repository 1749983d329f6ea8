import { AppError, type Db } from '@countinghouse/kit';
import { MESSAGES, type SecondFactorUse } from '@countinghouse/proto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionStore } from '../db/session-store.js';
import { countFailure, readThrottle, recordSuccess, type CountedFailure } from '../db/throttle.js';
import { blockingDelay, waitOf } from '../domain/throttle.js';
import { secondFactorUse } from '../domain/second-factor-use.js';
import type { SecretCipher } from '../domain/secret-cipher.js';
import { PASSKEY_MESSAGES } from '../use-cases/passkeys.js';
import { checkSecondFactor, TWO_FACTOR_MESSAGES, type TwoFactorOwner } from '../use-cases/two-factor.js';
import type { sessionCookies } from './cookies.js';

// The steps administrator and people sign-in share: where a session starts from, rotating the
// presented refresh cookie, and signing out.

type Cookies = ReturnType<typeof sessionCookies>;

/** Where a new session comes from: the client's address and browser. */
export function sessionOrigin(request: FastifyRequest) {
  return { ip: request.ip ?? null, userAgent: String(request.headers['user-agent'] ?? '') };
}

/** The client's address as the throttle counts it. */
function addressOf(request: FastifyRequest): string {
  return request.ip || 'unknown';
}

/**
 * Check a sign-in attempt against the throttle (domain/throttle.ts): refused with 429 and the wait
 * (without calling `check`) while a delay applies to this account from this address; otherwise
 * `check` verifies the password. A null result or a refusal counts once, atomically, against the
 * account key (known or not: unknown names behave the same) and the address; the attempt that starts
 * a delay logs it. A result signs in: the account's count restarts and the address becomes known.
 */
export async function throttledSignIn<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Db,
  account: { scope: 'user' | 'admin'; key: string },
  check: () => Promise<T | null>,
  refused: () => AppError,
): Promise<T> {
  const address = addressOf(request);
  const state = await readThrottle(db, account, address);
  const blocked = blockingDelay(state);
  const delayed = (until: Date) => {
    const wait = waitOf(until);
    reply.header('retry-after', String(wait.seconds));
    return new AppError('RATE_LIMITED', MESSAGES.signInDelayed(wait.minutes));
  };
  const logStarts = (c: { account: CountedFailure; address: CountedFailure }) => {
    for (const f of [c.account, c.address]) {
      if (f.delayStarted)
        request.log.warn(
          {
            scope: f.row.scope,
            key: f.row.key.slice(0, 254),
            address,
            failures: f.row.failures,
            level: f.delayStarted.level,
            until: f.delayStarted.until,
          },
          'sign-in delay started',
        );
    }
  };
  if (blocked) {
    const counted = await countFailure(db, account, address);
    logStarts(counted);
    throw delayed(
      blockingDelay({ account: counted.account.row, address: counted.address.row, knownAddress: state.knownAddress }) ?? blocked,
    );
  }
  const result = await check();
  if (result === null) {
    const counted = await countFailure(db, account, address);
    logStarts(counted);
    const now = blockingDelay({ account: counted.account.row, address: counted.address.row, knownAddress: state.knownAddress });
    throw now ? delayed(now) : refused();
  }
  await recordSuccess(db, account, address);
  return result;
}

/**
 * Rotate the refresh cookie sent with this request (UNAUTHENTICATED with `missing` when there is none).
 * A rotated-out token coming back has revoked its session; that is logged as `reuseLog`.
 */
export async function rotatePresented(
  request: FastifyRequest,
  cookies: Cookies,
  sessions: SessionStore,
  o: { missing: string; reuseLog: string },
) {
  const presented = request.cookies[cookies.name];
  if (!presented) throw new AppError('UNAUTHENTICATED', o.missing);
  const r = await sessions.rotate(presented);
  if (r.kind === 'reused') request.log.warn({ sessionId: r.session.id }, o.reuseLog);
  return r;
}

/**
 * Sign out with either credential: the session of the access token (when it is of this kind) or of
 * the refresh cookie is revoked and announced; the cookies are always cleared.
 */
export async function endSession(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: 'admin' | 'user',
  cookies: Cookies,
  sessions: SessionStore,
): Promise<void> {
  const presented = request.cookies[cookies.name];
  const target =
    request.principal?.kind === kind
      ? { id: request.principal.sessionId, ownerId: request.principal.id }
      : presented
        ? await sessions.findByRefreshToken(presented)
        : null;
  if (target) await sessions.revokeAndAnnounce(target.id, target.ownerId);
  cookies.clear(reply);
}

/**
 * After a correct password (issue 32), for people and admin panel accounts alike (`owner`): the account,
 * when it has no second factor or a good one was given; null for a wrong one (counted as a failed
 * sign-in by the throttle); a 401 asking for the code when none was given.
 */
export async function passSecondFactor<T extends { id: string }>(
  deps: { db: Db; cipher: SecretCipher },
  found: T,
  body: { totp_code?: string; recovery_code?: string },
  owner: TwoFactorOwner,
): Promise<(T & { secondFactor: SecondFactorUse | null }) | null> {
  const r = await checkSecondFactor(deps, found.id, body, owner);
  if (r === 'totp' || r === 'recovery') return { ...found, secondFactor: secondFactorUse(r, found.id) };
  if (r === 'passkey') throw new AppError('UNAUTHENTICATED', PASSKEY_MESSAGES.useIt, [{ path: 'passkey', message: 'required' }]);
  if (r === 'missing')
    throw new AppError('UNAUTHENTICATED', TWO_FACTOR_MESSAGES.codeRequired, [{ path: 'totp_code', message: 'required' }]);
  return r === 'ok' ? { ...found, secondFactor: null } : null;
}

import { AppError } from '@countinghouse/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionStore } from '../db/session-store.js';
import type { sessionCookies } from './cookies.js';

// The steps administrator and people sign-in share: where a session starts from, rotating the
// presented refresh cookie, and signing out.

type Cookies = ReturnType<typeof sessionCookies>;

/** Where a new session comes from: the client's address and browser. */
export function sessionOrigin(request: FastifyRequest) {
  return { ip: request.ip ?? null, userAgent: String(request.headers['user-agent'] ?? '') };
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

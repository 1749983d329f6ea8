import { ACCESS_COOKIE } from '@countinghouse/kit';
import type { FastifyReply } from 'fastify';

/** The access cookie (all paths) and a refresh cookie sent only to its own refresh/logout routes. */
export function sessionCookies(o: { secure: boolean; refreshCookie: string; refreshPath: string }) {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: o.secure };
  return {
    name: o.refreshCookie,
    set(reply: FastifyReply, access: { token: string; expiresAt: number }, refresh: { token: string; expiresAt: Date } | null) {
      reply.setCookie(ACCESS_COOKIE, access.token, { ...base, path: '/', expires: new Date(access.expiresAt * 1000) });
      if (refresh) reply.setCookie(o.refreshCookie, refresh.token, { ...base, path: o.refreshPath, expires: refresh.expiresAt });
    },
    clear(reply: FastifyReply) {
      reply.clearCookie(ACCESS_COOKIE, { ...base, path: '/' });
      reply.clearCookie(o.refreshCookie, { ...base, path: o.refreshPath });
    },
  };
}

/** The people's (staff and clients') refresh cookie, and the admin panel accounts'. */
export const PEOPLE_COOKIES = { refreshCookie: 'ch_rt', refreshPath: '/api/identity/auth' } as const;
export const ADMIN_COOKIES = { refreshCookie: 'ch_admin_rt', refreshPath: '/api/identity/admin' } as const;

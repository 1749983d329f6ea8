import { requireRole, type App, type Db } from '@countinghouse/kit';
import { LOCKOUTS_LIMIT, LockoutListSchema, rolesFor, type LockoutList } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { listLockouts } from '../db/throttle.js';

const ErrorRef = Type.Ref('ErrorBody');

/** Security views for administrators: the sign-in delays that started (who, from where, when, until). */
export function securityRoutes(app: App, deps: { db: Db }) {
  const { db } = deps;

  app.get(
    '/security/lockouts',
    {
      preHandler: requireRole(rolesFor('security.lockouts')),
      schema: {
        tags: ['identity'],
        summary: 'The most recent sign-in delays (accounts and addresses), newest first',
        response: { 200: LockoutListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (): Promise<LockoutList> => {
      const rows = await listLockouts(db, LOCKOUTS_LIMIT);
      const now = Date.now();
      const lockouts = rows.map((r) => ({
        id: r.id,
        scope: r.scope,
        account: r.scope === 'address' ? null : r.key,
        address: r.address,
        started_at: r.startedAt.toISOString(),
        until: r.until.toISOString(),
        failures: r.failures,
        level: r.level,
        active: r.until.getTime() > now,
      }));
      return { lockouts, active: lockouts.filter((l) => l.active).length };
    },
  );
}

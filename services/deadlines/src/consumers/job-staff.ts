import { subscribe, type ConsumerRuntime } from '@countinghouse/kit';
import { rolesFor } from '@countinghouse/proto';
import { addJoinedStaff, deactivateStaffRole, upsertStaff } from '../db/job-queries.js';
import { SCHEMA } from '../db/schema.js';

export const JOB_STAFF_CONSUMER = 'deadlines.job-staff';
/** The people client jobs are assigned to: those holding client_jobs (admin, manager, staff, accountant). */
const STAFF_SIDE: readonly string[] = rolesFor('client_jobs');

/**
 * identity.role_changed / identity.staff_joined → the people jobs are assigned to (names, role, active),
 * keyed by identity's user id; their cost rate, capacity and leave are kept beside (issue 29).
 */
export async function subscribeJobStaff(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: JOB_STAFF_CONSUMER,
    types: ['identity.role_changed', 'identity.staff_joined'],
    schema: SCHEMA,
    handler: async (e, tx) => {
      if (e.type === 'identity.staff_joined') {
        if (!STAFF_SIDE.includes(e.data.role)) return;
        await addJoinedStaff(tx, e.data.userId, e.data.email, e.data.role);
        return;
      }
      const d = e.data;
      if (!STAFF_SIDE.includes(d.role)) return;
      if (d.isActive) await upsertStaff(tx, { userId: d.userId, name: d.name || d.email, role: d.role, active: true });
      else await deactivateStaffRole(tx, d.userId, d.role);
    },
  });
}

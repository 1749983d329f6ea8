import type { Me } from '@countinghouse/proto';

const user = (over: Partial<Me['user']>): Me['user'] => ({
  user_id: '00000000-0000-4000-8000-000000000001',
  email: 'sam@example.co.uk',
  first_name: 'Sam',
  last_name: 'Stone',
  company_name: null,
  role: 'staff',
  created_at: '2026-03-05T10:00:00Z',
  ...over,
});

export const ME_STAFF: Me = { user: user({}), roles: ['staff'], staff_role: 'staff', session_expires_at: '2026-04-05T10:00:00Z' };
export const ME_MANAGER: Me = {
  user: user({ user_id: '00000000-0000-4000-8000-000000000002', email: 'mo@example.co.uk', first_name: null, role: 'manager' }),
  roles: ['manager'],
  staff_role: 'manager',
  session_expires_at: '2026-04-05T10:00:00Z',
};
export const ME_ACCOUNTANT: Me = {
  user: user({ user_id: '00000000-0000-4000-8000-000000000003', email: 'alex@example.co.uk', role: 'accountant' }),
  roles: ['accountant'],
  staff_role: null,
  session_expires_at: '2026-04-05T10:00:00Z',
};

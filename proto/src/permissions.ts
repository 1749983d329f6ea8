// What each role may do: the one table the services' guards are built from and the User Roles page
// shows (docs/decisions.md). Browser-safe. Only type imports from constants.ts, which derives its
// role lists from here (a runtime import back would be a cycle).
import type { Role } from './constants.js';

export const PERMISSION_AREAS = [
  'Access',
  'Clients',
  'Staff',
  'Documents',
  'Billing',
  'Marketing',
  'Integrations',
  'Practice',
  'Anti-money laundering',
] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];

export interface Permission {
  key: string;
  area: PermissionArea;
  label: string;
  /** How a permission is narrowed for some roles (rows filtered to the caller's own clients). */
  note?: string;
  roles: readonly Role[];
}

const ADMIN: readonly Role[] = ['admin'];
const MANAGERS: readonly Role[] = ['admin', 'manager'];
const STAFF: readonly Role[] = ['admin', 'manager', 'staff'];
const STAFF_AND_ACCOUNTANTS: readonly Role[] = ['admin', 'manager', 'staff', 'accountant'];
const EVERYONE: readonly Role[] = ['admin', 'manager', 'staff', 'accountant', 'client'];

export const PERMISSIONS = [
  { key: 'staff_portal.sign_in', area: 'Access', label: 'Staff portal sign-in', roles: STAFF },
  {
    key: 'clients.view',
    area: 'Clients',
    label: 'View clients and their tasks',
    note: 'Accountants see only the clients assigned to them, read only.',
    roles: STAFF_AND_ACCOUNTANTS,
  },
  { key: 'clients.edit', area: 'Clients', label: 'View and edit clients', roles: STAFF },
  { key: 'crm.overview', area: 'Clients', label: 'Practice figures, sidebar counts and team members', roles: STAFF },
  { key: 'leads.manage', area: 'Clients', label: 'Manage leads', roles: STAFF },
  { key: 'leads.import', area: 'Clients', label: 'Import leads from GoHighLevel', roles: STAFF },
  { key: 'tasks.manage', area: 'Clients', label: 'Create and update tasks', roles: STAFF },
  {
    key: 'tasks.complete',
    area: 'Clients',
    label: 'Complete and reopen tasks',
    note: 'Accountants the tasks assigned to them or about the clients assigned to them.',
    roles: STAFF_AND_ACCOUNTANTS,
  },
  {
    key: 'work.view',
    area: 'Clients',
    label: 'My work: deadlines, tasks, AML reviews and letters coming due',
    note: 'Accountants only for the clients assigned to them; an MLRO sees the files awaiting approval.',
    roles: [...STAFF_AND_ACCOUNTANTS, 'mlro'],
  },
  { key: 'work.everyone', area: 'Clients', label: "See everyone's work in My work", roles: STAFF },
  {
    key: 'clients.notes',
    area: 'Clients',
    label: "Add notes to a client's Timeline",
    note: 'Accountants only on the clients assigned to them.',
    roles: STAFF_AND_ACCOUNTANTS,
  },
  { key: 'upgrades.manage', area: 'Clients', label: 'Handle upgrade requests', roles: STAFF },
  { key: 'communications.manage', area: 'Clients', label: 'Client communications', roles: STAFF },
  { key: 'staff.manage', area: 'Staff', label: 'Invite and deactivate staff', roles: MANAGERS },
  { key: 'users.view', area: 'Staff', label: 'See registered people and the sent e-mail log', roles: ADMIN },
  { key: 'roles', area: 'Staff', label: 'Manage roles', roles: ADMIN },
  // Admin panel accounts (role admin) hold it too, for their own account at /admin/two-factor (issue 32).
  { key: 'two_factor.own', area: 'Access', label: 'Turn on two-factor sign-in for their own account', roles: [...EVERYONE, 'mlro'] },
  {
    key: 'two_factor.policy',
    area: 'Access',
    label: 'Require two-factor sign-in of staff from a date',
    note: 'Administrators (admin panel accounts too), managers, staff, accountants and MLROs then set it up at their next sign-in.',
    roles: ADMIN,
  },
  { key: 'security.lockouts', area: 'Access', label: 'See sign-in delays (who, from where, until when)', roles: ADMIN },
  {
    key: 'documents.view',
    area: 'Documents',
    label: 'See, view and download documents',
    note: 'Clients their own business’s, accountants their assigned clients’; staff and above all.',
    roles: EVERYONE,
  },
  {
    key: 'documents.upload',
    area: 'Documents',
    label: 'Upload documents',
    note: 'Clients for their own business, accountants for their assigned clients.',
    roles: EVERYONE,
  },
  { key: 'documents.view_all', area: 'Documents', label: 'See all documents', roles: STAFF },
  { key: 'documents.access_log', area: 'Documents', label: 'See who viewed or downloaded a document', roles: ADMIN },
  { key: 'billing.manage', area: 'Billing', label: 'Manage billing', roles: MANAGERS },
  {
    key: 'billing.vat',
    area: 'Billing',
    label: "The practice's VAT registration (number, rate, address on invoices)",
    roles: ADMIN,
  },
  { key: 'media.scripts', area: 'Marketing', label: 'Generate video scripts', roles: MANAGERS },
  {
    key: 'integrations.view_all',
    area: 'Integrations',
    label: "See any client's accounting integrations",
    note: 'Connecting, syncing and disconnecting stay the client’s own acts.',
    roles: STAFF,
  },
  {
    key: 'mtd',
    area: 'Integrations',
    label: 'Making Tax Digital: authorisations, obligations and figures for review',
    note: 'Accountants only for the clients assigned to them.',
    roles: STAFF_AND_ACCOUNTANTS,
  },
  {
    key: 'mtd.submit',
    area: 'Integrations',
    label: 'Send quarterly updates to HMRC',
    note: 'Accountants only for the clients assigned to them.',
    roles: ['admin', 'manager', 'accountant'],
  },
  { key: 'mtd.connect', area: 'Integrations', label: "Connect the practice's HMRC agent account and set its ARN", roles: MANAGERS },
  {
    key: 'deadlines.view',
    area: 'Clients',
    label: 'See statutory deadlines and tax profiles',
    note: 'Accountants see only the clients assigned to them; clients see their own business’s deadlines.',
    roles: EVERYONE,
  },
  {
    key: 'deadlines.manage',
    area: 'Clients',
    label: 'Edit tax profiles, link Companies House, mark deadlines done',
    note: 'Accountants only for the clients assigned to them.',
    roles: STAFF_AND_ACCOUNTANTS,
  },
  { key: 'deadlines.settings', area: 'Practice', label: 'Deadline task settings', roles: MANAGERS },
  {
    key: 'client_jobs',
    area: 'Clients',
    label: 'Client jobs: the board, the list, checklists, notes and time',
    note: 'Accountants only the jobs of the clients assigned to them.',
    roles: STAFF_AND_ACCOUNTANTS,
  },
  {
    key: 'client_jobs.settings',
    area: 'Practice',
    label: 'Job templates, staff cost rates, capacity and leave; the profitability report',
    roles: MANAGERS,
  },
  {
    key: 'aml.view',
    area: 'Anti-money laundering',
    label: 'See AML due diligence files and their audit trail',
    note: 'Accountants only the files of the clients assigned to them, read only. Clients never.',
    roles: ['admin', 'manager', 'mlro', 'accountant'],
  },
  {
    key: 'aml.manage',
    area: 'Anti-money laundering',
    label: 'Prepare AML files: people, identity evidence, risk assessment',
    roles: ['admin', 'manager', 'mlro'],
  },
  { key: 'aml.approve', area: 'Anti-money laundering', label: 'Approve due diligence (the MLRO)', roles: ['mlro'] },
  {
    key: 'identity_verification.view',
    area: 'Anti-money laundering',
    label: 'See the Companies House identity verification of every director and PSC',
    note: 'Accountants only the people of the clients assigned to them.',
    roles: ['admin', 'manager', 'staff', 'mlro', 'accountant'],
  },
  {
    key: 'identity_verification.record',
    area: 'Anti-money laundering',
    label: 'Record an identity verification the practice made as an ACSP',
    roles: ['admin', 'manager', 'mlro'],
  },
  {
    key: 'identity_verification.settings',
    area: 'Practice',
    label: "The practice's ACSP number and AML supervisor",
    roles: MANAGERS,
  },
  {
    key: 'identity_verification.delete',
    area: 'Anti-money laundering',
    label: 'Delete ACSP verification records after the seven-year retention period',
    roles: ADMIN,
  },
  {
    key: 'aml.delete',
    area: 'Anti-money laundering',
    label: 'Delete AML files after the five-year retention period',
    roles: ADMIN,
  },
  {
    key: 'engagement.view',
    area: 'Clients',
    label: 'See engagement letters and their status',
    note: 'Accountants see only the clients assigned to them; clients see and sign their own letters.',
    roles: EVERYONE,
  },
  {
    key: 'engagement.sign',
    area: 'Clients',
    label: 'Sign an engagement letter',
    note: 'Only the client, for their own business.',
    roles: ['client'],
  },
  { key: 'engagement.send', area: 'Clients', label: 'Send a client a new engagement letter version', roles: STAFF },
  { key: 'engagement.templates', area: 'Practice', label: 'Engagement letter templates', roles: ADMIN },
  {
    key: 'requests.view',
    area: 'Clients',
    label: 'See client requests and the secure message thread; answer items and write messages',
    note: 'Accountants only for the clients assigned to them; clients only their own business.',
    roles: EVERYONE,
  },
  {
    key: 'requests.manage',
    area: 'Clients',
    label: 'Send requests, review items, send reminders',
    note: 'Accountants only for the clients assigned to them.',
    roles: STAFF_AND_ACCOUNTANTS,
  },
  { key: 'requests.templates', area: 'Practice', label: 'Request templates and their reminder schedules', roles: MANAGERS },
  {
    key: 'audit',
    area: 'Clients',
    label: "The audit trail: who changed or viewed a client's records, when and from where",
    roles: ['admin', 'manager', 'mlro'],
  },
  { key: 'audit.export', area: 'Clients', label: 'Export the audit trail (CSV)', roles: MANAGERS },
  { key: 'sar', area: 'Clients', label: "Subject-access requests: log one, build and download a person's data", roles: ADMIN },
  { key: 'retention.settings', area: 'Practice', label: 'Retention schedule, legal holds and the retention run', roles: ADMIN },
  { key: 'reports', area: 'Practice', label: 'Reports', roles: ADMIN },
  { key: 'settings', area: 'Practice', label: 'Company settings', roles: ADMIN },
  { key: 'notifications', area: 'Practice', label: 'Notifications', roles: ADMIN },
  { key: 'jobs', area: 'Practice', label: 'Background jobs and schedules: status and retry', roles: ADMIN },
] as const satisfies readonly Permission[];

export type PermissionKey = (typeof PERMISSIONS)[number]['key'];
export const PERMISSION_KEYS: PermissionKey[] = PERMISSIONS.map((p) => p.key);

/** The table as plain rows: its literal rows narrow `roles` to tuples whose includes takes their own members only. */
const PERMISSION_ROWS: readonly Permission[] = PERMISSIONS;
const admits = (roles: readonly Role[], role: Role): boolean => roles.includes(role);

/** The roles a permission admits: what its guards pass to requireRole. */
export function rolesFor(key: PermissionKey): readonly Role[] {
  const p = PERMISSION_ROWS.find((x) => x.key === key);
  if (!p) throw new Error(`unknown permission ${key}`);
  return p.roles;
}

/** The permissions a role holds, in table order. */
export function permissionsOf(role: Role): PermissionKey[] {
  return PERMISSIONS.filter((p) => admits(p.roles, role)).map((p) => p.key);
}

/** Roles as a token carries them (strings): one the table does not know is in no permission's list. */
export function hasPermission(roles: readonly string[], key: PermissionKey): boolean {
  const allowed: readonly string[] = rolesFor(key);
  return roles.some((r) => allowed.includes(r));
}

/**
 * Who may invite to which role (and so see, re-send or cancel invitations to it): nobody above their own
 * rank. An administrator invites to any staff role; a manager only to staff and accountant. The
 * invitation routes, the acceptance check (the inviter must still hold such a role) and the invite form
 * all read this one table.
 */
export const INVITE_HIERARCHY: Readonly<Record<Role, readonly Role[]>> = {
  admin: ['admin', 'manager', 'staff', 'accountant'],
  manager: ['staff', 'accountant'],
  staff: [],
  accountant: [],
  client: [],
  mlro: [],
};

/** The roles someone holding `roles` may invite to, in the hierarchy's order. */
export function invitableRolesFor(roles: readonly Role[]): Role[] {
  const allowed = new Set(roles.flatMap((r) => INVITE_HIERARCHY[r] ?? []));
  return INVITE_HIERARCHY.admin.filter((r) => allowed.has(r));
}

/** May someone holding `roles` invite to (see, re-send, cancel an invitation for) `role`? */
export function canInviteTo(roles: readonly Role[], role: Role): boolean {
  return roles.some((r) => (INVITE_HIERARCHY[r] ?? []).includes(role));
}

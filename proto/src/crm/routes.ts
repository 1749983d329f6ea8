import type { Role } from '../constants.js';
import { rolesFor } from '../permissions.js';

/** HTTP routes of crm, under the gateway. Every one needs a signed-in caller. */
export const CRM_ROUTES = {
  clients: '/api/crm/clients',
  client: (id: string) => `/api/crm/clients/${id}`,
  /** A client's own record (role client). */
  myClient: '/api/crm/clients/mine',
  leads: '/api/crm/leads',
  lead: (id: string) => `/api/crm/leads/${id}`,
  convertLead: (id: string) => `/api/crm/leads/${id}/convert`,
  tasks: '/api/crm/tasks',
  task: (id: string) => `/api/crm/tasks/${id}`,
  upgrades: '/api/crm/upgrades',
  upgrade: (id: string) => `/api/crm/upgrades/${id}`,
  communications: '/api/crm/communications',
  communication: (id: string) => `/api/crm/communications/${id}`,
  stats: '/api/crm/stats',
  sidebarCounts: '/api/crm/sidebar-counts',
  search: '/api/crm/search',
  teamMembers: '/api/crm/team-members',
  ghlConfig: '/api/crm/ghl/config',
  ghlImport: '/api/crm/ghl/import',
} as const;

/**
 * Who may call what (enforced by crm, tested in services/crm/test/access.test.ts):
 * - admin, manager, staff (and the admin panel session): everything below.
 * - accountant: GET clients (only those assigned to them), GET client/:id (same), GET tasks (assigned
 *   to them or on their clients), GET search (their clients and tasks; no leads). No writes, no leads.
 * - client: GET and PATCH /clients/mine only (PATCH: their business profile; the only caller of PATCH).
 */
export const CRM_STAFF_ROLES: readonly Role[] = rolesFor('clients.edit');

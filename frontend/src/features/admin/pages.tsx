import { NotBuiltYet } from '../../shared/NotBuiltYet';

/** The admin sections later issues build; each answers honestly until then. */
export const ADMIN_SECTIONS = {
  clients: 'Clients',
  leads: 'Leads',
  staff: 'Staff',
  upgrades: 'Upgrades',
  tasks: 'Tasks',
  documents: 'Documents',
  communications: 'Communications',
  billing: 'Billing',
  reports: 'Reports',
  settings: 'Company Settings',
  roles: 'User Roles',
  notifications: 'Notifications',
} as const;
export type AdminSection = keyof typeof ADMIN_SECTIONS;

export function AdminSectionPage({ section }: { section: AdminSection }) {
  return <NotBuiltYet name={ADMIN_SECTIONS[section]} route={`/admin/${section}`} />;
}

export default AdminSectionPage;

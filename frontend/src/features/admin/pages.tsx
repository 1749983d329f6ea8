import { Flex, Typography } from 'antd';
import { NotBuiltYet } from '../../shared/NotBuiltYet';
import { usePageTitle } from '../../shared/use-page-title';
import { AdminStaffManagement } from './AdminStaffManagement';
import './dashboard.css';

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
  if (section === 'staff') return <StaffSection />;
  return <NotBuiltYet name={ADMIN_SECTIONS[section]} route={`/admin/${section}`} />;
}

export default AdminSectionPage;

function StaffSection() {
  usePageTitle('Staff Management');
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={1} className="admin-section__title">
        Staff Management
      </Typography.Title>
      <AdminStaffManagement />
    </Flex>
  );
}

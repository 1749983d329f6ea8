import { Flex, Typography } from 'antd';
import { usePageTitle } from '../../shared/use-page-title';
import { AdminStaffManagement } from './AdminStaffManagement';
import './dashboard.css';

/** /admin/staff: invitations and staff members (the panel the staff portal shows managers too). */
export function AdminStaffPage() {
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

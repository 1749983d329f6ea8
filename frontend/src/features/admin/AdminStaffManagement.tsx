import { selectAdminUser } from '../../app/admin-session';
import { useAppSelector } from '../../app/store';
import { StaffManagementPanel } from '../staff/StaffManagementPanel';

/** The staff management panel under the admin session (tab of the control panel, and /admin/staff). */
export function AdminStaffManagement() {
  const user = useAppSelector(selectAdminUser);
  return <StaffManagementPanel realm="admin" roles={user ? [user.role] : []} canReadMailLog />;
}

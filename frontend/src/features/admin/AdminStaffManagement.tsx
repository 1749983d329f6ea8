import { StaffManagementPanel } from '../staff/StaffManagementPanel';

/** The staff management panel under the admin session (tab of the control panel, and /admin/staff). */
export function AdminStaffManagement() {
  return <StaffManagementPanel realm="admin" canReadMailLog />;
}

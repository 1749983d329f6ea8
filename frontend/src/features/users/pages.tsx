export { UserManagementPage } from './UserManagementPage';

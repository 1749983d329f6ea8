import { NotBuiltYet } from '../../shared/NotBuiltYet';

export const UserManagementPage = () => <NotBuiltYet name="User management" route="/user-management" />;

import { NotBuiltYet } from '../../shared/NotBuiltYet';

// The staff portal; its own chunk.
export const StaffLoginPage = ({ route }: { route: '/staff-login' | '/staff/login' }) => <NotBuiltYet name="Staff login" route={route} />;
export const StaffSignupPage = () => <NotBuiltYet name="Staff registration" route="/staff/signup" />;
export const StaffDashboardPage = () => <NotBuiltYet name="Staff dashboard" route="/staff/dashboard" />;

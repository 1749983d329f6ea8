// The staff sign-in and sign-up pages: one small chunk. The portal itself is its own chunk
// (StaffDashboardPage.tsx), so signing in does not download the back office.
export { StaffLoginPage } from './StaffLoginPage';
export { StaffSignupPage } from './StaffSignupPage';

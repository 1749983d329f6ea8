import { Suspense, useSyncExternalStore } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router-dom';
import { lazyNamed } from './lazy-named';
import { PublicLayout } from './layouts/PublicLayout';
import { NotFound } from '../features/status-pages/NotFound';
import { RouteErrorFallback } from '../features/status-pages/RouteErrorFallback';
import { PageSpinner } from '../shared/PageSpinner';
import { toastHost } from '../shared/toast-host';
// The marketing pages are in the entry chunk, not lazy: a visitor's first paint is the whole page,
// with no spinner that the content then pushes down (Lighthouse's layout shift), for a few kB.
import {
  AboutUsPage,
  BlogPage,
  HomePage,
  PackageSelectionPage,
  ResourcesPage,
  ServicesPage,
  WhoWeHelpPage,
} from '../features/public/pages';

// antd's providers, loaded with the first page that uses antd: the marketing pages and the entry
// chunk carry none of it (home page JS budget, docs/decisions.md).
const AntdShell = lazyNamed(() => import('./antd-shell'), 'AntdShell');
const ToastHost = lazyNamed(() => import('./antd-shell'), 'ToastHost');

// One loader per area: the module is fetched once and each page picks its export from it.
const clientPages = () => import('../features/client/pages');
const staffPages = () => import('../features/staff/pages');
const clientAuthPages = () => import('../features/client-auth/pages');
const adminPages = () => import('../features/admin/pages');

const LoginPage = lazyNamed(clientAuthPages, 'LoginPage');
const SignupPage = lazyNamed(clientAuthPages, 'SignupPage');
const TestLoginPage = lazyNamed(() => import('../features/public/TestLoginPage'), 'TestLoginPage');
const passwordResetPages = () => import('../features/auth/PasswordResetPages');
const ForgotPasswordPage = lazyNamed(passwordResetPages, 'ForgotPasswordPage');
const AccountSecurityPage = lazyNamed(() => import('../features/auth/AccountSecurityPage'), 'AccountSecurityPage');
const ResetPasswordPage = lazyNamed(passwordResetPages, 'ResetPasswordPage');

// The client portal (issue 33, item 4): its own layout and pages, in their own chunk (decision 640).
const portalPages = () => import('../features/portal/pages');
const PortalLayout = lazyNamed(portalPages, 'PortalLayout');
const ClientDashboardPage = lazyNamed(portalPages, 'ClientDashboardPage');
const PORTAL_PAGES = {
  documents: lazyNamed(portalPages, 'PortalDocumentsPage'),
  requests: lazyNamed(portalPages, 'PortalRequestsPage'),
  messages: lazyNamed(portalPages, 'PortalMessagesPage'),
  deadlines: lazyNamed(portalPages, 'PortalDeadlinesPage'),
  billing: lazyNamed(portalPages, 'PortalBillingPage'),
  account: lazyNamed(portalPages, 'PortalAccountPage'),
};
const PortalNotFoundPage = lazyNamed(portalPages, 'PortalNotFoundPage');
const PaymentSuccessPage = lazyNamed(clientPages, 'PaymentSuccessPage');
const integrationsPages = () => import('../features/integrations/IntegrationsPage');
const IntegrationsPage = lazyNamed(integrationsPages, 'IntegrationsPage');
const IntegrationsCallbackPage = lazyNamed(integrationsPages, 'IntegrationsCallbackPage');
const AdminDocumentsPage = lazyNamed(() => import('../features/documents/DocumentsPage'), 'AdminDocumentsPage');
const AdminNotificationsPage = lazyNamed(() => import('../features/notifications/NotificationsPage'), 'AdminNotificationsPage');
const CheckoutPage = lazyNamed(clientPages, 'CheckoutPage');
const TermsPage = lazyNamed(clientPages, 'TermsPage');
const TestCheckoutPage = lazyNamed(clientPages, 'TestCheckoutPage');
const AdminBillingPage = lazyNamed(() => import('../features/client/AdminBillingPage'), 'AdminBillingPage');
const AdminReportsPage = lazyNamed(() => import('../features/reports/ReportsPage'), 'ReportsPage');
const AdminSettingsPage = lazyNamed(() => import('../features/settings/SettingsPage'), 'SettingsPage');
const AdminJobsPage = lazyNamed(() => import('../features/jobs/JobsPage'), 'JobsPage');
const AdminRecordsPage = lazyNamed(() => import('../features/records/RecordsPage'), 'RecordsPage');
const AdminRolesPage = lazyNamed(() => import('../features/roles/RolesPage'), 'RolesPage');
const AdminDeadlinesPage = lazyNamed(() => import('../features/deadlines/DeadlinesPage'), 'DeadlinesPage');
const MtdPage = lazyNamed(() => import('../features/mtd/MtdPage'), 'MtdPage');
const AdminIdentityVerificationPage = lazyNamed(
  () => import('../features/identity-verification/IdentityVerificationPage'),
  'IdentityVerificationPage',
);
const AdminAmlPage = lazyNamed(() => import('../features/aml/AmlPage'), 'AmlPage');

const StaffLoginPage = lazyNamed(staffPages, 'StaffLoginPage');
const StaffSignupPage = lazyNamed(staffPages, 'StaffSignupPage');
// The portal is its own chunk: signing in does not download the back office.
const StaffDashboardPage = lazyNamed(() => import('../features/staff/StaffDashboardPage'), 'StaffDashboardPage');
const RequireClient = lazyNamed(() => import('../features/auth/RequireClient'), 'RequireClient');

// The workspace (issue 26): My work and the client record, in the admin panel and at /work.
const workspacePages = () => import('../features/workspace/pages');
const WorkLayout = lazyNamed(workspacePages, 'WorkLayout');
const WorkMyWorkPage = lazyNamed(workspacePages, 'WorkMyWorkPage');
const WorkClientRecordPage = lazyNamed(workspacePages, 'WorkClientRecordPage');
const AdminClientRecordPage = lazyNamed(workspacePages, 'AdminClientRecordPage');
const AdminMyWorkPage = lazyNamed(workspacePages, 'AdminMyWorkPage');

// Client jobs (issue 29): the board, the list, capacity, profitability and a job's page.
const clientJobsPages = () => import('../features/jobs/client-jobs-pages');
const AdminClientJobsPage = lazyNamed(clientJobsPages, 'AdminClientJobsPage');
const AdminClientJobPage = lazyNamed(clientJobsPages, 'AdminClientJobPage');
const WorkJobsPage = lazyNamed(clientJobsPages, 'WorkJobsPage');
const WorkJobPage = lazyNamed(clientJobsPages, 'WorkJobPage');

const UserManagementPage = lazyNamed(() => import('../features/users/pages'), 'UserManagementPage');

const AdminLoginPage = lazyNamed(() => import('../features/admin-auth/AdminLoginPage'), 'AdminLoginPage');
const AdminLayout = lazyNamed(() => import('./layouts/admin/AdminLayout'), 'AdminLayout');
const AdminAccountSecurityPage = lazyNamed(() => import('../features/admin-auth/AdminAccountSecurityPage'), 'AdminAccountSecurityPage');
const AdminDashboardPage = lazyNamed(() => import('../features/admin/DashboardPage'), 'DashboardPage');
const AdminStaffPage = lazyNamed(adminPages, 'AdminStaffPage');
const crmPages = () => import('../features/crm/pages');
const CRM_PAGES = {
  clients: lazyNamed(crmPages, 'AdminClientsPage'),
  leads: lazyNamed(crmPages, 'AdminLeadsPage'),
  tasks: lazyNamed(crmPages, 'AdminTasksPage'),
  upgrades: lazyNamed(crmPages, 'AdminUpgradesPage'),
  communications: lazyNamed(crmPages, 'AdminCommunicationsPage'),
};

function Root() {
  // Once a page has loaded antd, the toasts live here, outside every area's shell (shared/toast-host.ts).
  const antdLoaded = useSyncExternalStore(toastHost.subscribe, toastHost.shellLoaded);
  return (
    <>
      <Suspense fallback={<PageSpinner fullScreen />}>
        <Outlet />
      </Suspense>
      {antdLoaded && (
        <Suspense fallback={null}>
          <ToastHost />
        </Suspense>
      )}
    </>
  );
}

/** Every route of the spec's route table (section 2). Exported for tests (createMemoryRouter). */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Root />,
    errorElement: <RouteErrorFallback />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          // Marketing pages: plain HTML and CSS, no antd (keep new ones so, or put them in the shell below).
          { index: true, element: <HomePage /> },
          { path: 'package-selection', element: <PackageSelectionPage /> },
          { path: 'who-we-help', element: <WhoWeHelpPage /> },
          { path: 'services', element: <ServicesPage /> },
          { path: 'resources', element: <ResourcesPage /> },
          { path: 'about-us', element: <AboutUsPage /> },
          { path: 'blog', element: <BlogPage /> },
          { path: 'blog/:slug', element: <BlogPage /> },
          {
            element: <AntdShell />,
            children: [
              { path: 'login', element: <LoginPage /> },
              { path: 'signup', element: <SignupPage /> },
              // Forgot password for clients and staff (?from=staff), and the e-mailed reset link.
              { path: 'forgot-password', element: <ForgotPasswordPage /> },
              { path: 'reset-password', element: <ResetPasswordPage /> },
              // Signed-in client pages (spec 6): without a session they send the user to /login.
              {
                element: <RequireClient />,
                children: [
                  { path: 'payment-success', element: <PaymentSuccessPage /> },
                  // Terms before payment (issue 33): the chosen package's engagement letter, then the checkout.
                  { path: 'terms', element: <TermsPage /> },
                  { path: 'integrations', element: <IntegrationsPage /> },
                  // Two-factor sign-in for every signed-in person, staff and clients (issue 32).
                  { path: 'account/security', element: <AccountSecurityPage /> },
                ],
              },
              // The provider returns here; the page hands the code and state to the API, which checks the state.
              { path: 'integrations/xero/callback', element: <IntegrationsCallbackPage /> },
              // Choosing a package: checkout (signs a visitor up first), and the built-in test checkout.
              { path: 'checkout', element: <CheckoutPage /> },
              { path: 'checkout/test', element: <TestCheckoutPage /> },
              { path: 'staff-login', element: <StaffLoginPage /> },
              { path: 'staff/login', element: <StaffLoginPage /> },
              { path: 'staff/signup', element: <StaffSignupPage /> },
              { path: 'staff/dashboard', element: <StaffDashboardPage /> },
              { path: 'test-login', element: <TestLoginPage /> },
              { path: 'user-management', element: <UserManagementPage /> },
            ],
          },
        ],
      },
      // The client portal (issue 33, item 4; decision 640): the spec's /dashboard and /client-dashboard
      // are its Home, in the portal's own layout (not the marketing menu); its other pages under /portal.
      {
        element: (
          <AntdShell>
            <RequireClient />
          </AntdShell>
        ),
        children: [
          {
            element: <PortalLayout />,
            children: [
              { path: 'dashboard', element: <ClientDashboardPage route="/dashboard" /> },
              { path: 'client-dashboard', element: <ClientDashboardPage route="/client-dashboard" /> },
              { path: 'portal', element: <ClientDashboardPage route="/dashboard" /> },
              ...Object.entries(PORTAL_PAGES).map(([path, Page]) => ({ path: `portal/${path}`, element: <Page /> })),
              { path: 'portal/*', element: <PortalNotFoundPage /> },
            ],
          },
        ],
      },
      // Two addresses, one page (the spec's variants A and B).
      {
        path: 'admin-login',
        element: (
          <AntdShell>
            <AdminLoginPage />
          </AntdShell>
        ),
      },
      {
        path: 'admin/login',
        element: (
          <AntdShell>
            <AdminLoginPage />
          </AntdShell>
        ),
      },
      {
        path: 'admin',
        element: (
          <AntdShell>
            <AdminLayout />
          </AntdShell>
        ),
        children: [
          { index: true, element: <AdminDashboardPage /> },
          { path: 'dashboard', element: <AdminDashboardPage /> },
          { path: 'account-security', element: <AdminAccountSecurityPage /> },
          { path: 'billing', element: <AdminBillingPage /> },
          { path: 'reports', element: <AdminReportsPage /> },
          { path: 'settings', element: <AdminSettingsPage /> },
          { path: 'jobs', element: <AdminJobsPage /> },
          { path: 'audit', element: <AdminRecordsPage /> },
          { path: 'roles', element: <AdminRolesPage /> },
          { path: 'deadlines', element: <AdminDeadlinesPage /> },
          { path: 'client-jobs', element: <AdminClientJobsPage /> },
          { path: 'client-jobs/:id', element: <AdminClientJobPage /> },
          { path: 'mtd', element: <MtdPage realm="admin" base="/admin" /> },
          { path: 'identity-verification', element: <AdminIdentityVerificationPage /> },
          { path: 'aml', element: <AdminAmlPage /> },
          { path: 'documents', element: <AdminDocumentsPage /> },
          { path: 'notifications', element: <AdminNotificationsPage /> },
          { path: 'staff', element: <AdminStaffPage /> },
          { path: 'work', element: <AdminMyWorkPage /> },
          { path: 'clients/:id', element: <AdminClientRecordPage /> },
          ...Object.entries(CRM_PAGES).map(([path, Page]) => ({ path, element: <Page /> })),
        ],
      },
      // The staff-side workspace: every member of staff and the accountants (issue 26).
      {
        path: 'work',
        element: (
          <AntdShell>
            <WorkLayout />
          </AntdShell>
        ),
        children: [
          { index: true, element: <WorkMyWorkPage /> },
          { path: 'clients/:id', element: <WorkClientRecordPage /> },
          { path: 'jobs', element: <WorkJobsPage /> },
          { path: 'jobs/:id', element: <WorkJobPage /> },
          { path: 'mtd', element: <MtdPage realm="user" base="/work" /> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

import { NotBuiltYet } from '../../shared/NotBuiltYet';

// Signed-in client pages; their own chunk so the marketing pages stay light.
export const ClientDashboardPage = ({ route }: { route: '/dashboard' | '/client-dashboard' }) => (
  <NotBuiltYet name="Client dashboard" route={route} />
);
export const PaymentSuccessPage = () => <NotBuiltYet name="Payment confirmation" route="/payment-success" />;
export const IntegrationsPage = ({ route }: { route: '/integrations' | '/integrations/xero/callback' }) => (
  <NotBuiltYet name="Integrations" route={route} />
);

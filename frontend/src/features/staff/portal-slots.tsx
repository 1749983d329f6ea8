import { Suspense, type ComponentType, type ReactNode } from 'react';
import { lazyNamed } from '../../app/lazy-named';
import { PageSpinner } from '../../shared/PageSpinner';

/**
 * What other areas put into the staff portal (/staff/dashboard), each in its own chunk fetched when
 * the portal shows it (crm: frontend/src/features/crm, documents: frontend/src/features/documents).
 * They run under the person's session: their endpoints must pass `auth: 'user'` (or 'any' when the
 * admin panel shows them too), see app/api.ts.
 */
// Each area in its own chunk, fetched when the portal shows it.
const crm = () => import('../crm');
const StaffStats = lazyNamed(crm, 'StaffStats');
const StaffClientDatabase = lazyNamed(crm, 'StaffClientDatabase');
const StaffLeads = lazyNamed(crm, 'StaffLeads');
const ClientDocumentsView = lazyNamed(() => import('../documents'), 'ClientDocumentsView');

function slot(render: () => ReactNode): ComponentType {
  return function Slot() {
    return <Suspense fallback={<PageSpinner />}>{render()}</Suspense>;
  };
}

/** The three stat cards: Total Clients, Active Clients, Monthly Revenue. */
export const PortalStats = slot(() => <StaffStats />);
/** Tab 'Client Database'. */
export const PortalClientDatabase = slot(() => <StaffClientDatabase />);
/** Tab 'Client Documents'. */
export const PortalClientDocuments = slot(() => <ClientDocumentsView realm="user" />);
/** Tab 'Leads'. */
export const PortalLeads = slot(() => <StaffLeads />);

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

function slot(render: () => ReactNode, fallback: ReactNode = <PageSpinner />): ComponentType {
  return function Slot() {
    return <Suspense fallback={fallback}>{render()}</Suspense>;
  };
}

/**
 * While crm's chunk loads, the stat cards' row keeps the cards' own height (staff-portal.css), not the
 * page spinner's 240 px: the tabs below do not jump up when the cards arrive (a click aimed at a tab
 * landed on what moved into its place; the browser tests once did just that).
 */
const STATS_LOADING = (
  <div role="status" aria-live="polite" className="staff-portal__stats-loading">
    Loading figures…
  </div>
);

/** The three stat cards: Total Clients, Active Clients, Monthly Revenue. */
export const PortalStats = slot(() => <StaffStats />, STATS_LOADING);
/** Tab 'Client Database'. */
export const PortalClientDatabase = slot(() => <StaffClientDatabase />);
/** Tab 'Client Documents'. */
export const PortalClientDocuments = slot(() => <ClientDocumentsView realm="user" />);
/** Tab 'Leads'. */
export const PortalLeads = slot(() => <StaffLeads />);

import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Empty } from 'antd';
import { lazyNamed } from '../../app/lazy-named';
import { PageSpinner } from '../../shared/PageSpinner';

/**
 * The one place where other areas plug into the staff portal (/staff/dashboard). Each slot is a
 * component exported by its feature (crm: frontend/src/features/crm, documents:
 * frontend/src/features/documents); null shows an honest "Not built yet" until it exists.
 * Components here run inside the staff portal, under the person's session: their endpoints must
 * pass `auth: 'user'` (or 'any' when the admin panel shows them too), see app/api.ts.
 */
export interface StaffPortalSlots {
  /** Replaces the three stat cards: Total Clients, Active Clients, Monthly Revenue. */
  stats: ComponentType | null;
  /** Tab 'Client Database'. */
  clientDatabase: ComponentType | null;
  /** Tab 'Client Documents'. */
  clientDocuments: ComponentType | null;
  /** Tab 'Leads'. */
  leads: ComponentType | null;
}

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

export const STAFF_PORTAL_SLOTS: StaffPortalSlots = {
  stats: slot(() => <StaffStats />),
  clientDatabase: slot(() => <StaffClientDatabase />),
  clientDocuments: slot(() => <ClientDocumentsView realm="user" />),
  leads: slot(() => <StaffLeads />),
};

/** Shown wherever another area will put real data: never a made-up number. */
export function NotBuiltPanel({ what }: { what: string }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`${what}: not built yet`} />;
}

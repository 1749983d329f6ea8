import type { ComponentType } from 'react';
import { Empty } from 'antd';

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

export const STAFF_PORTAL_SLOTS: StaffPortalSlots = {
  stats: null,
  clientDatabase: null,
  clientDocuments: null,
  leads: null,
};

/** Shown wherever another area will put real data: never a made-up number. */
export function NotBuiltPanel({ what }: { what: string }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`${what}: not built yet`} />;
}

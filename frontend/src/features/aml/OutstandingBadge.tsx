import { AML_MESSAGES } from '@countinghouse/proto';
import { Tag } from 'antd';
import type { AuthRealm } from '../../app/api';
import { useAmlStatusesQuery } from './api';

/** "Due diligence outstanding" beside each listed client whose AML file is not approved and in date. */
export function useOutstandingClients(clientIds: string[], realm: AuthRealm = 'admin', enabled = true): Set<string> {
  const q = useAmlStatusesQuery({ clientIds, realm }, { skip: !enabled || clientIds.length === 0 });
  return new Set((q.data?.statuses ?? []).filter((s) => s.outstanding).map((s) => s.client_id));
}

export function OutstandingTag() {
  return <Tag color="red">{AML_MESSAGES.outstandingBadge}</Tag>;
}

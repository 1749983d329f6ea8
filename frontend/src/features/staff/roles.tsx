import { Tag } from 'antd';
import type { Role } from '@countinghouse/proto';

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  manager: 'Manager',
  staff: 'Staff',
  accountant: 'Accountant',
  client: 'Client',
  mlro: 'MLRO',
};

const ROLE_COLOURS: Record<Role, string> = {
  admin: 'red',
  manager: 'purple',
  staff: 'blue',
  accountant: 'green',
  client: 'default',
  mlro: 'gold',
};

/** A role badge, the same colours everywhere. */
export function RoleTag({ role }: { role: Role }) {
  return <Tag color={ROLE_COLOURS[role]}>{ROLE_LABELS[role]}</Tag>;
}

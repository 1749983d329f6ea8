import type { SettingField, SettingsPatch } from '@countinghouse/proto';

export interface CurrentValues {
  name: string;
  phone: string;
  email: string;
  maintenance: boolean;
}

/** The fields a (validated, normalised) patch really changes, in a fixed order. */
export function changedFields(current: CurrentValues, patch: SettingsPatch): SettingField[] {
  const out: SettingField[] = [];
  if (patch.name !== undefined && patch.name !== current.name) out.push('name');
  if (patch.phone !== undefined && patch.phone !== current.phone) out.push('phone');
  if (patch.email !== undefined && patch.email !== current.email) out.push('email');
  if (patch.maintenance !== undefined && patch.maintenance !== current.maintenance) out.push('maintenance');
  return out;
}

import type { IntegrationData } from '@countinghouse/proto';

/** The stored integration_data as the cards show it: the organisation's name and, once synced, its summary. */
export function integrationDataOf(stored: unknown): IntegrationData {
  const d = (stored ?? {}) as Partial<IntegrationData>;
  return { company_name: d.company_name ?? null, ...(d.summary ? { summary: d.summary } : {}) };
}

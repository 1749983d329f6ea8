import type { IntegrationData } from '@countinghouse/proto';

/** The stored integration_data as the cards show it: the organisation's name and, once synced, its summary. */
export function integrationDataOf(stored: Partial<IntegrationData> | undefined): IntegrationData {
  const d: Partial<IntegrationData> = stored ?? {};
  return { company_name: d.company_name ?? null, ...(d.summary ? { summary: d.summary } : {}) };
}

import { defineService } from '@countinghouse/kit';
import { CrmConfigSchema } from './config.js';
import { crmPlugin } from './plugin.js';

/** The crm service: clients, leads, tasks, the workspace, the GoHighLevel import. */
export const service = defineService({
  name: 'crm',
  configSchema: CrmConfigSchema,
  replicated: true,
  plugin: crmPlugin,
  options: (config, host) => ({
    runtime: host.runtime,
    ghl: { apiKey: config.GHL_API_KEY, locationId: config.GHL_LOCATION_ID, baseUrl: config.GHL_BASE_URL || undefined },
  }),
});

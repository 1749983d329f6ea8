import { startService } from '@countinghouse/kit';
import { CrmConfigSchema } from './config.js';
import { crmPlugin } from './plugin.js';

await startService({
  name: 'crm',
  configSchema: CrmConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(crmPlugin, {
      runtime,
      ghl: { apiKey: config.GHL_API_KEY, locationId: config.GHL_LOCATION_ID, baseUrl: config.GHL_BASE_URL || undefined },
    });
  },
});

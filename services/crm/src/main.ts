import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { crmPlugin } from './plugin.js';

await startService({
  name: 'crm',
  configSchema: Type.Object({
    GHL_API_KEY: Type.String({ default: '' }),
    GHL_LOCATION_ID: Type.String({ default: '' }),
    GHL_BASE_URL: Type.String({ default: '' }),
  }),
  async register(scope, runtime, config) {
    await scope.register(crmPlugin, {
      runtime,
      ghl: { apiKey: config.GHL_API_KEY, locationId: config.GHL_LOCATION_ID, baseUrl: config.GHL_BASE_URL || undefined },
    });
  },
});

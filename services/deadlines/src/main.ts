import { startService } from '@countinghouse/kit';
import { DeadlinesConfigSchema } from './config.js';
import { deadlinesPlugin } from './plugin.js';

await startService({
  name: 'deadlines',
  configSchema: DeadlinesConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(deadlinesPlugin, {
      runtime,
      companiesHouse: { apiKey: config.COMPANIES_HOUSE_API_KEY, baseUrl: config.COMPANIES_HOUSE_BASE_URL || undefined },
    });
  },
});

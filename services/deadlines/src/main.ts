import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { deadlinesPlugin } from './plugin.js';

const DeadlinesConfigSchema = Type.Object({
  COMPANIES_HOUSE_API_KEY: Type.String({ default: '' }),
  COMPANIES_HOUSE_BASE_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
});

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

import { defineService } from '@countinghouse/kit';
import { DeadlinesConfigSchema } from './config.js';
import { deadlinesPlugin } from './plugin.js';

/** The deadlines service: statutory deadlines, jobs and time, Companies House. */
export const service = defineService({
  name: 'deadlines',
  configSchema: DeadlinesConfigSchema,
  plugin: deadlinesPlugin,
  options: (config, host) => ({
    runtime: host.runtime,
    companiesHouse: { apiKey: config.COMPANIES_HOUSE_API_KEY, baseUrl: config.COMPANIES_HOUSE_BASE_URL || undefined },
  }),
});

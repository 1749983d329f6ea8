import { defineService } from '@countinghouse/kit';
import { RequestsConfigSchema } from './config.js';
import { requestsPlugin } from './plugin.js';

/** The requests service: requests for records, their chasing, messages. */
export const service = defineService({
  name: 'requests',
  configSchema: RequestsConfigSchema,
  plugin: requestsPlugin,
  // the practice's name and address in the e-mails follow /admin/settings
  options: (_config, host) => ({ runtime: host.runtime, practice: host.practice }),
});

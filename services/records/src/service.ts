import { defineService } from '@countinghouse/kit';
import { RecordsConfigSchema } from './config.js';
import { recordsPlugin } from './plugin.js';

/** The records service: the audit trail, subject-access exports, retention. */
export const service = defineService({
  name: 'records',
  configSchema: RecordsConfigSchema,
  plugin: recordsPlugin,
  options: (config, host) => ({ runtime: host.runtime, retentionHour: config.RETENTION_RUN_HOUR }),
});

import { startService } from '@countinghouse/kit';
import { RecordsConfigSchema } from './config.js';
import { recordsPlugin } from './plugin.js';

await startService({
  name: 'records',
  configSchema: RecordsConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(recordsPlugin, { runtime, retentionHour: config.RETENTION_RUN_HOUR });
  },
});

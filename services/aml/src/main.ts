import { startService } from '@countinghouse/kit';
import { AmlConfigSchema } from './config.js';
import { amlPlugin } from './plugin.js';

await startService({
  name: 'aml',
  configSchema: AmlConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(amlPlugin, { runtime, evidenceWaitMs: config.AML_EVIDENCE_WAIT_MS });
  },
});

import { startService } from '@countinghouse/kit';
import { IntegrationsConfigSchema } from './config.js';
import { integrationsPlugin } from './plugin.js';

await startService({
  name: 'integrations',
  configSchema: IntegrationsConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(integrationsPlugin, { runtime, config });
  },
});

import { readFileSync } from 'node:fs';
import { startService } from '@countinghouse/kit';
import { IntegrationsConfigSchema } from './config.js';
import { integrationsPlugin } from './plugin.js';

await startService({
  name: 'integrations',
  configSchema: IntegrationsConfigSchema,
  async register(scope, runtime, config) {
    if (config.INTEGRATIONS_ENCRYPTION_KEY_FILE)
      config.INTEGRATIONS_ENCRYPTION_KEY = readFileSync(config.INTEGRATIONS_ENCRYPTION_KEY_FILE, 'utf8').trim();
    await scope.register(integrationsPlugin, { runtime, config, production: config.NODE_ENV === 'production' });
  },
});

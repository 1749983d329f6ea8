import { defineService } from '@countinghouse/kit';
import { readFileSync } from 'node:fs';
import { IntegrationsConfigSchema, parseEncryptionKey, providerSettings } from './config.js';
import { integrationsPlugin } from './plugin.js';

/** The integrations service: Xero, QuickBooks and HMRC (Making Tax Digital) connections, syncs and submissions. */
export const service = defineService({
  name: 'integrations',
  configSchema: IntegrationsConfigSchema,
  // the providers' tokens at rest: a key made once in DATA_DIR/keys unless INTEGRATIONS_ENCRYPTION_KEY(_FILE) is set
  secrets: [{ env: 'INTEGRATIONS_ENCRYPTION_KEY', file: 'integrations-tokens.key', bytes: 32, encoding: 'base64' }],
  checkConfig(config) {
    // a provider half configured (an id without its secret), or a key that is not 32 bytes, stops the start
    providerSettings(config, 'http://localhost');
    if (config.INTEGRATIONS_ENCRYPTION_KEY) parseEncryptionKey(config.INTEGRATIONS_ENCRYPTION_KEY);
  },
  plugin: integrationsPlugin,
  options(config, host) {
    const key = config.INTEGRATIONS_ENCRYPTION_KEY_FILE
      ? readFileSync(config.INTEGRATIONS_ENCRYPTION_KEY_FILE, 'utf8').trim()
      : config.INTEGRATIONS_ENCRYPTION_KEY;
    return { runtime: host.runtime, config: { ...config, INTEGRATIONS_ENCRYPTION_KEY: key }, production: host.production };
  },
});

import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { integrationsPlugin } from './plugin.js';

await startService({
  name: 'integrations',
  configSchema: Type.Object({}),
  async register(scope, runtime) {
    await scope.register(integrationsPlugin, { runtime });
  },
});

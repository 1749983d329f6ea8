import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { billingPlugin } from './plugin.js';

await startService({
  name: 'billing',
  configSchema: Type.Object({}),
  async register(scope, runtime) {
    await scope.register(billingPlugin, { runtime });
  },
});

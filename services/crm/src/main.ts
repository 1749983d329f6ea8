import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { crmPlugin } from './plugin.js';

await startService({
  name: 'crm',
  configSchema: Type.Object({}),
  async register(scope, runtime) {
    await scope.register(crmPlugin, { runtime });
  },
});

import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { notificationsPlugin } from './plugin.js';

await startService({
  name: 'notifications',
  configSchema: Type.Object({}),
  async register(scope, runtime) {
    await scope.register(notificationsPlugin, { runtime });
  },
});

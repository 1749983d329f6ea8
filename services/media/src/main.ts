import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { mediaPlugin } from './plugin.js';

await startService({
  name: 'media',
  configSchema: Type.Object({}),
  async register(scope, runtime) {
    await scope.register(mediaPlugin, { runtime });
  },
});

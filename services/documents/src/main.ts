import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { documentsPlugin } from './plugin.js';

await startService({
  name: 'documents',
  configSchema: Type.Object({}),
  async register(scope, runtime) {
    await scope.register(documentsPlugin, { runtime });
  },
});

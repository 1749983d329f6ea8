import { startService } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { documentsPlugin } from './plugin.js';

const DocumentsConfigSchema = Type.Object({
  /** Where uploaded files live; every replica must see the same folder (a shared volume). */
  DOCUMENTS_STORAGE_DIR: Type.String({ minLength: 1 }),
  /** Secret of the signed view links, shared by every replica. */
  DOCUMENTS_LINK_SECRET: Type.String({ minLength: 32 }),
});

await startService({
  name: 'documents',
  configSchema: DocumentsConfigSchema,
  async register(scope, runtime, config) {
    await scope.register(documentsPlugin, {
      runtime,
      storageDir: config.DOCUMENTS_STORAGE_DIR,
      linkSecret: config.DOCUMENTS_LINK_SECRET,
    });
  },
});

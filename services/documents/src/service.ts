import { defineService } from '@countinghouse/kit';
import { resolve } from 'node:path';
import { DocumentsConfigSchema, linkSecretOf, storageChoice } from './config.js';
import { documentsPlugin } from './plugin.js';
import { S3DocumentStorage } from './adapters/storage/s3-storage.js';

/** The documents service: uploads (disk or an S3-compatible object store), versions, signed view links. */
export const service = defineService({
  name: 'documents',
  configSchema: DocumentsConfigSchema,
  replicated: true,
  // the view links' secret, made once in DATA_DIR/keys, and the files under DATA_DIR/documents unless an object store is set
  secrets: [{ env: 'DOCUMENTS_LINK_SECRET', file: 'documents-link.secret', bytes: 32, encoding: 'base64url' }],
  dataFolder: { env: 'DOCUMENTS_STORAGE_DIR', folder: 'documents' },
  checkConfig(config) {
    storageChoice(config);
    linkSecretOf(config);
  },
  plugin: documentsPlugin,
  async options(config, host, scope) {
    const choice = storageChoice(config);
    let storage;
    if ('s3' in choice) {
      const s3 = new S3DocumentStorage(choice.s3);
      await s3.init();
      scope.addHook('onClose', async () => s3.close());
      storage = s3;
    }
    return { runtime: host.runtime, storageDir: 'dir' in choice ? resolve(choice.dir) : '', storage, linkSecret: linkSecretOf(config) };
  },
});

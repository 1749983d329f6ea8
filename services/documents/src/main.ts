import { ConfigError, startService } from '@countinghouse/kit';
import { resolve } from 'node:path';
import { DocumentsConfigSchema, linkSecretOf, storageChoice } from './config.js';
import { documentsPlugin } from './plugin.js';
import { S3DocumentStorage } from './storage/s3-storage.js';

await startService({
  name: 'documents',
  configSchema: DocumentsConfigSchema,
  async register(scope, runtime, config) {
    let choice;
    let linkSecret;
    try {
      choice = storageChoice(config);
      linkSecret = linkSecretOf(config);
    } catch (err) {
      if (err instanceof ConfigError) {
        process.stderr.write(`documents: ${err.message}\n`);
        process.exit(78);
      }
      throw err;
    }
    let storage;
    if ('s3' in choice) {
      const s3 = new S3DocumentStorage(choice.s3);
      await s3.init();
      scope.addHook('onClose', async () => s3.close());
      storage = s3;
    }
    await scope.register(documentsPlugin, {
      runtime,
      storageDir: 'dir' in choice ? resolve(choice.dir) : '',
      storage,
      linkSecret,
    });
  },
});

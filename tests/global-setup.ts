import { prepareTemplate } from '@countinghouse/kit/testing';
import { SERVICE_MIGRATIONS } from './services.js';

const g = globalThis as { __countinghouseTemplate?: Promise<void> };

/** Several projects name this setup; the template is built once per run. */
export default async function setup() {
  g.__countinghouseTemplate ??= prepareTemplate(SERVICE_MIGRATIONS);
  await g.__countinghouseTemplate;
}

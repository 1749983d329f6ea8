import { prepareTemplate } from '@countinghouse/kit/testing';
import { SERVICE_MIGRATIONS } from './services.js';

export default async function setup() {
  await prepareTemplate(SERVICE_MIGRATIONS);
}

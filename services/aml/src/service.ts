import { defineService } from '@countinghouse/kit';
import { AmlConfigSchema } from './config.js';
import { amlPlugin } from './plugin.js';

/** The AML service: client due diligence files, risk assessments, the MLRO's reviews. */
export const service = defineService({
  name: 'aml',
  configSchema: AmlConfigSchema,
  plugin: amlPlugin,
  options: (config, host) => ({ runtime: host.runtime, evidenceWaitMs: config.AML_EVIDENCE_WAIT_MS }),
});

import { defineService } from '@countinghouse/kit';
import { EngagementConfigSchema } from './config.js';
import { engagementPlugin } from './plugin.js';

/** The engagement service: engagement letters, their versions and signatures. */
export const service = defineService({
  name: 'engagement',
  configSchema: EngagementConfigSchema,
  plugin: engagementPlugin,
  // the practice details in every letter follow /admin/settings
  options: (_config, host) => ({ runtime: host.runtime, practice: host.practice }),
});

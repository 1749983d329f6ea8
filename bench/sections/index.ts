import type { Section } from '../lib/section.js';
import { allInOneSection } from './all-in-one.js';
import { capacitySection } from './capacity.js';
import { crmSection } from './crm.js';
import { deadlinesSection } from './deadlines.js';
import { documentsSection } from './documents.js';
import { gatewaySection } from './gateway.js';
import { helloSection } from './hello.js';
import { identitySection } from './identity.js';
import { identityVerificationSection } from './identity-verification.js';
import { jobsSection } from './jobs.js';
import { k6Section } from './k6.js';
import { publicSection } from './public.js';

/**
 * Every section, in the order `npm run bench` runs them. Add new sections here. The order keeps
 * sections that need no Kafka before those that start it (an idle broker still takes some CPU).
 */
export const SECTIONS: Section[] = [
  helloSection,
  allInOneSection,
  identitySection,
  crmSection,
  deadlinesSection,
  identityVerificationSection,
  jobsSection,
  documentsSection,
  publicSection,
  gatewaySection,
  k6Section,
  capacitySection,
];

/**
 * The services of the product, in start order: the one list (issue 27). Each is the folder
 * services/<name>, whose src/service.ts describes it (the kit's defineService); it is mounted at
 * /api/<name>, runs as the process <name> in the distributed product, and owns the PostgreSQL schema
 * and role of that name. The all-in-one server, the distributed launcher, the gateway's routing, the env
 * examples and the tests all loop over this list: a new service is one folder and one line here.
 *
 * settings comes first: the others are registered with the practice details it holds.
 */
export const SERVICES = [
  'settings',
  'identity',
  'crm',
  'documents',
  'billing',
  'integrations',
  'media',
  'notifications',
  'deadlines',
  'aml',
  'engagement',
  'requests',
  'records',
] as const;
export type GatewayService = (typeof SERVICES)[number];

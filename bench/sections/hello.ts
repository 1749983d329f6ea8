import type { Section } from '../lib/section.js';

/** (a) The floor of this machine: how fast a bare Fastify route answers with this load generator. */
export const helloSection: Section = {
  name: 'hello',
  title: 'Bare Fastify hello route (the floor of this machine)',
  description: '(a) a bare Fastify app with one JSON route, in its own process',
  async run(ctx, scope) {
    const server = await scope.spawn({ name: 'hello', script: 'bench/servers/hello.ts', env: {} });
    const rows = await ctx.compare([{ key: 'a', label: 'bare Fastify GET /', url: `${server.url}/` }]);
    return { rows, checks: [] };
  },
};

import type { ServiceDescriptor } from '@countinghouse/kit';
import { SERVICES } from '@countinghouse/proto';

function isDescriptor(v: unknown): v is ServiceDescriptor {
  return typeof v === 'object' && v !== null && 'name' in v && 'plugin' in v && 'options' in v && 'configSchema' in v;
}

let loaded: Promise<ServiceDescriptor[]> | null = null;

/**
 * Every service's descriptor (its package's `./service` export), in proto's SERVICES order: what the
 * all-in-one composes and the distributed launcher starts. Loaded once per process.
 */
export function loadServices(): Promise<ServiceDescriptor[]> {
  loaded ??= Promise.all(
    SERVICES.map(async (name) => {
      const mod: unknown = await import(`@countinghouse/${name}/service`);
      const service = typeof mod === 'object' && mod !== null && 'service' in mod ? mod.service : undefined;
      if (!isDescriptor(service) || service.name !== name)
        throw new Error(`services/${name}/src/service.ts must export \`service\`, made by defineService with the name '${name}'`);
      return service;
    }),
  );
  return loaded;
}

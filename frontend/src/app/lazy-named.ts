import { lazy, type ComponentType } from 'react';

/**
 * React.lazy for a named export. Every page of one module shares one chunk, so each area
 * (public, client, staff, admin) downloads only when one of its routes is visited.
 */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<PropsOf<M[K]>> })) as ComponentType<PropsOf<M[K]>>;
}
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

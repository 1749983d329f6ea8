import { fileURLToPath } from 'node:url';

/** The repository's folder (with a trailing slash): the processes run there, the infra/ launchers are found there. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

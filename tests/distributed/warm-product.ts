import { beforeAll, inject } from 'vitest';

// A set-up file of the distributed project (vitest.config.ts): in a run that has browser-distributed after
// this group, its product starts while these files run (tests/e2e/distributed-global-setup.ts), not at the
// run's start. The first file to get here starts it; asking again changes nothing; nothing waits for it.
beforeAll(async () => {
  const control = inject('e2eProductControl');
  if (!control) return;
  await fetch(`${control}/warm`, { method: 'POST' }).catch(() => {});
});

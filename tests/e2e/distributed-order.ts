import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The browser-distributed project's files share one product (tests/e2e/distributed-global-setup.ts), so
 * they run in a fixed order: first the ones that look at the whole practice (the staff file sees no
 * user yet, the journey's client is the only paying one), then those that work on clients of their own.
 */
export const BROWSER_DISTRIBUTED_FILES = [
  'tests/e2e/staff.test.ts',
  'tests/e2e/journey.test.ts',
  'tests/e2e/admin-login.test.ts',
  'tests/e2e/media.test.ts',
  'tests/e2e/settings.test.ts',
  'tests/e2e/documents.test.ts',
  'tests/e2e/notifications.test.ts',
  'tests/e2e/requests.test.ts',
  'tests/e2e/timeline.test.ts',
];

/** vitest's own order for every project, but browser-distributed's files in the order above. */
export class E2EOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const ours = (f: TestSpecification) => f.project.name === 'browser-distributed';
    const rank = (f: TestSpecification) => BROWSER_DISTRIBUTED_FILES.findIndex((p) => f.moduleId.endsWith(p));
    const ordered = sorted.filter(ours).sort((a, b) => rank(a) - rank(b));
    let i = 0;
    return sorted.map((f) => (ours(f) ? ordered[i++]! : f));
  }
}

import { testServerUrl } from '@countinghouse/kit/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestSpecification } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { laneOf, laneOrder, takeLane } from './lanes.js';

// The lanes of the test run (issue 27, item 5; tests/lanes.ts): the order the first group's files are
// handed out in, and the lock that keeps a lane's files one at a time.

const root = '/repo';
const spec = (project: string, file: string) =>
  ({ project: { name: project }, moduleId: `${root}/${file}` }) as unknown as TestSpecification;
const name = (s: TestSpecification) => `${s.project.name}:${s.moduleId.slice(root.length + 1)}`;

describe('laneOf', () => {
  it.each([
    ['browser', 'tests/e2e/crm.test.ts', 'browser'],
    ['distributed', 'tests/distributed/kafka-outbox.test.ts', 'kafka'],
    ['server', 'services/kit/test/wait-dependencies.test.ts', 'kafka'],
    ['distributed-product', 'tests/distributed/product.test.ts', 'product'],
    ['server', 'services/crm/test/clients.test.ts', null],
    ['frontend', 'src/app/router.test.tsx', null],
  ])('%s %s: %s', (project, file, lane) => {
    expect(laneOf(project, file)).toBe(lane);
  });
});

describe('laneOrder', () => {
  const seconds: Record<string, number> = {
    'browser:tests/e2e/a.test.ts': 60,
    'browser:tests/e2e/b.test.ts': 30,
    'browser:tests/e2e/c.test.ts': 40,
    'distributed:tests/distributed/k.test.ts': 20,
    'server:services/crm/test/1.test.ts': 10,
    'server:services/crm/test/2.test.ts': 10,
    'server:services/crm/test/3.test.ts': 10,
    'frontend:src/x.test.tsx': 10,
  };
  const specs = Object.keys(seconds).map((k) => {
    const [project, file] = k.split(':') as [string, string];
    return spec(project, file);
  });
  const expected = (s: TestSpecification) => seconds[name(s)];

  it('hands out every file once', () => {
    const order = laneOrder(specs, root, 2, expected);
    expect(order.map(name).sort()).toEqual(Object.keys(seconds).sort());
  });

  it('runs one lane at a time beside the free files while there are any, then the lanes side by side', () => {
    const order = laneOrder(specs, root, 2, expected).map(name);
    // worker 1: the lane with the most time left, its longest file first: a (0-60); worker 2: the free
    // files meanwhile (10 s each, 0-40), then k (40-60: its lane is free); at 60 worker 1 takes c
    // (60-100) and worker 2 the browser lane's last file, b, which waits for c (100-130)
    expect(order).toEqual([
      'browser:tests/e2e/a.test.ts',
      'server:services/crm/test/1.test.ts',
      'server:services/crm/test/2.test.ts',
      'server:services/crm/test/3.test.ts',
      'frontend:src/x.test.tsx',
      'distributed:tests/distributed/k.test.ts',
      'browser:tests/e2e/c.test.ts',
      'browser:tests/e2e/b.test.ts',
    ]);
  });

  it('on three workers two lanes run at once beside the free files', () => {
    const order = laneOrder(specs, root, 3, expected).map(name);
    expect(order.slice(0, 3)).toEqual([
      'browser:tests/e2e/a.test.ts',
      'distributed:tests/distributed/k.test.ts',
      'server:services/crm/test/1.test.ts',
    ]);
  });

  it('with one worker keeps every file', () => {
    expect(laneOrder(specs, root, 1, expected)).toHaveLength(specs.length);
  });

  it('a file with no figure takes its project’s average', () => {
    const order = laneOrder([spec('server', 's.test.ts'), spec('browser', 'tests/e2e/z.test.ts')], root, 2, () => undefined);
    expect(order.map(name)).toEqual(['browser:tests/e2e/z.test.ts', 'server:s.test.ts']);
  });
});

describe('takeLane', () => {
  it('holds a lane until its holder ends; another lane is free meanwhile', async () => {
    const url = testServerUrl();
    const lane = `lanes-test-${process.pid}-${Date.now()}`;
    const first = await takeLane(lane, url);
    let secondHeld = false;
    const second = takeLane(lane, url).then((c) => {
      secondHeld = true;
      return c;
    });
    const other = await takeLane(`${lane}-other`, url);
    await sleep(300);
    expect(secondHeld).toBe(false);
    await first.end();
    const c = await second;
    expect(secondHeld).toBe(true);
    await c.end();
    await other.end();
  });
});

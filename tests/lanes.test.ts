import { testServerUrl } from '@countinghouse/kit/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { TestSpecification } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { finishTurn, laneOf, laneOrder, orderedLanes, takeLane, writeTurns } from './lanes.js';
import { browserWorkers, laneGroupWorkers, testWorkers } from './workers.js';

// The lanes of the test run (issue 27, item 5; tests/lanes.ts): the order the first group's files are
// handed out in, and the lock that keeps a lane's files one at a time.

const root = '/repo';
const spec = (project: string, file: string) =>
  ({ project: { name: project }, moduleId: `${root}/${file}` }) as unknown as TestSpecification;
const name = (s: TestSpecification) => `${s.project.name}:${s.moduleId.slice(root.length + 1)}`;

describe('laneOf', () => {
  it.each([
    ['browser', 'tests/e2e/crm.test.ts', null],
    ['distributed', 'tests/distributed/kafka-outbox.test.ts', 'kafka'],
    ['server', 'services/kit/test/wait-dependencies.test.ts', 'kafka'],
    ['distributed-product', 'tests/distributed/product.test.ts', 'product'],
    ['server', 'services/crm/test/clients.test.ts', null],
    ['frontend', 'src/app/router.test.tsx', null],
    ['browser-distributed', 'tests/e2e/staff.test.ts', 'browser-distributed'],
  ])('%s %s: %s', (project, file, lane) => {
    expect(laneOf(project, file)).toBe(lane);
  });
});

describe('laneOrder', () => {
  const seconds: Record<string, number> = {
    'distributed-product:tests/distributed/product.test.ts': 60,
    'distributed:tests/distributed/k2.test.ts': 30,
    'distributed:tests/distributed/k1.test.ts': 40,
    'browser:tests/e2e/c.test.ts': 25,
    'server:services/crm/test/1.test.ts': 10,
    'server:services/crm/test/2.test.ts': 15,
    'frontend:src/x.test.tsx': 10,
  };
  const specs = Object.keys(seconds).map((k) => {
    const [project, file] = k.split(':') as [string, string];
    return spec(project, file);
  });
  const expected = (s: TestSpecification) => seconds[name(s)];

  it('hands out every file once', () => {
    const order = laneOrder(specs, root, 3, expected, 2);
    expect(order.map(name).sort()).toEqual(Object.keys(seconds).sort());
  });

  it('on 3 workers and 2 cores: one lane at a time beside two CPU-bound files while there are any, then the lanes side by side', () => {
    const order = laneOrder(specs, root, 3, expected, 2).map(name);
    // worker 1: the lane with the most time left (kafka, 70 s), its longest file first: k1 (0-40);
    // workers 2 and 3 the free files in vitest's order: c (0-25), 1 (0-10), 2 (10-25), x (25-35: one
    // lane already runs); with no free file left the lanes run side by side: product (25-85), and k2
    // once k1 has given the lane back (40-70)
    expect(order).toEqual([
      'distributed:tests/distributed/k1.test.ts',
      'browser:tests/e2e/c.test.ts',
      'server:services/crm/test/1.test.ts',
      'server:services/crm/test/2.test.ts',
      'frontend:src/x.test.tsx',
      'distributed-product:tests/distributed/product.test.ts',
      'distributed:tests/distributed/k2.test.ts',
    ]);
  });

  it('on 4 workers and 2 cores two lanes run at once beside the free files', () => {
    const order = laneOrder(specs, root, 4, expected, 2).map(name);
    expect(order.slice(0, 3)).toEqual([
      'distributed:tests/distributed/k1.test.ts',
      'distributed-product:tests/distributed/product.test.ts',
      'browser:tests/e2e/c.test.ts',
    ]);
  });

  it('a long free file starts first, the longest first; the short ones keep vitest’s order', () => {
    const order = laneOrder(
      [
        spec('server', 'a.test.ts'),
        spec('server', 'b.test.ts'),
        spec('server', 'slow.test.ts'),
        spec('browser', 'tests/e2e/x.test.ts'),
        spec('server', 'slower.test.ts'),
      ],
      root,
      2,
      (s) => ({ 'server:slow.test.ts': 40, 'server:slower.test.ts': 90, 'server:a.test.ts': 29 })[name(s)],
    ).map(name);
    expect(order).toEqual([
      'server:slower.test.ts',
      'server:slow.test.ts',
      'server:a.test.ts',
      'server:b.test.ts',
      'browser:tests/e2e/x.test.ts',
    ]);
  });

  it('with no figures (a fresh clone) the known long files start first', () => {
    const order = laneOrder(
      [
        spec('server', 'services/crm/test/1.test.ts'),
        spec('browser', 'tests/e2e/crm.test.ts'),
        spec('api-contract', 'gateway/test/schemathesis.test.ts'),
      ],
      root,
      2,
      () => undefined,
    ).map(name);
    expect(order[0]).toBe('api-contract:gateway/test/schemathesis.test.ts');
    expect(order.slice(1)).toEqual(['server:services/crm/test/1.test.ts', 'browser:tests/e2e/crm.test.ts']);
  });

  it('browser-distributed keeps its fixed order in its lane, beside the Kafka lane', () => {
    const order = laneOrder(
      [
        spec('distributed', 'tests/distributed/k1.test.ts'),
        spec('browser-distributed', 'tests/e2e/staff.test.ts'),
        spec('browser-distributed', 'tests/e2e/documents.test.ts'),
        spec('browser-distributed', 'tests/e2e/journey.test.ts'),
        spec('distributed', 'tests/distributed/k2.test.ts'),
      ],
      root,
      2,
      (s) => ({ 'browser-distributed:tests/e2e/journey.test.ts': 50, 'distributed:tests/distributed/k2.test.ts': 30 })[name(s)] ?? 10,
    ).map(name);
    expect(order.filter((f) => f.startsWith('browser-distributed:'))).toEqual([
      'browser-distributed:tests/e2e/staff.test.ts',
      'browser-distributed:tests/e2e/documents.test.ts',
      'browser-distributed:tests/e2e/journey.test.ts',
    ]);
    // (the longer lane first, the Kafka lane's longest file first)
    expect(order.slice(0, 2)).toEqual(['browser-distributed:tests/e2e/staff.test.ts', 'distributed:tests/distributed/k2.test.ts']);
  });

  it('with one worker keeps every file', () => {
    expect(laneOrder(specs, root, 1, expected)).toHaveLength(specs.length);
  });

  it('a file with no figure takes its project’s average', () => {
    const order = laneOrder(
      [spec('server', 's.test.ts'), spec('distributed-product', 'tests/distributed/p.test.ts')],
      root,
      3,
      () => undefined,
      2,
    );
    expect(order.map(name)).toEqual(['distributed-product:tests/distributed/p.test.ts', 'server:s.test.ts']);
  });
});

/** A lane asked for: whether it is held yet, and its holder once it is. */
function asked(taking: Promise<pg.Client>): { held: boolean; holder: Promise<pg.Client> } {
  const a = {
    held: false,
    holder: taking.then((c) => {
      a.held = true;
      return c;
    }),
  };
  return a;
}

describe('takeLane', () => {
  it('holds a lane until its holder ends; another lane is free meanwhile', async () => {
    const url = testServerUrl();
    const lane = `lanes-test-${process.pid}-${Date.now()}`;
    const first = await takeLane(lane, url);
    const second = asked(takeLane(lane, url));
    const other = await takeLane(`${lane}-other`, url);
    await sleep(300);
    expect(second.held).toBe(false);
    await first.end();
    const c = await second.holder;
    expect(second.held).toBe(true);
    await c.end();
    await other.end();
  });
});

describe('takeLane in an ordered lane', () => {
  it('a file waits for the files handed out before it to finish, even when it asks first', async () => {
    const url = testServerUrl();
    const lane = `lanes-turn-test-${process.pid}-${Date.now()}`;
    // (a run of its own: a main process id no process has)
    const runPid = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
    writeTurns({ [lane]: ['first.test.ts', 'second.test.ts'] }, runPid);
    try {
      const second = asked(takeLane(lane, url, { file: 'second.test.ts', runPid }));
      await sleep(600);
      expect(second.held).toBe(false);
      const first = await takeLane(lane, url, { file: 'first.test.ts', runPid });
      await sleep(600);
      expect(second.held).toBe(false);
      finishTurn(lane, 'first.test.ts', runPid);
      await first.end();
      const c = await second.holder;
      expect(second.held).toBe(true);
      // a file the run did not list takes the lane as before (the lock alone)
      const other = asked(takeLane(lane, url, { file: 'other.test.ts', runPid }));
      await sleep(300);
      expect(other.held).toBe(false);
      await c.end();
      await (await other.holder).end();
      expect(other.held).toBe(true);
    } finally {
      writeTurns({}, runPid);
    }
  });

  it('orderedLanes: browser-distributed’s files in the order given; no other lane', () => {
    expect(
      orderedLanes([
        { project: 'browser-distributed', file: 'tests/e2e/b.test.ts' },
        { project: 'distributed', file: 'tests/distributed/k.test.ts' },
        { project: 'browser', file: 'tests/e2e/b.test.ts' },
        { project: 'browser-distributed', file: 'tests/e2e/a.test.ts' },
      ]),
    ).toEqual({ 'browser-distributed': ['tests/e2e/b.test.ts', 'tests/e2e/a.test.ts'] });
  });
});

describe('testWorkers', () => {
  it.each([
    [undefined, 2, 2],
    ['', 2, 2],
    [undefined, 1, 1],
    [undefined, 8, 2],
    ['1', 2, 1],
    ['2', 2, 2],
    ['3', 2, 3],
    ['8', 2, 3],
    ['0', 2, 2],
    ['two', 2, 2],
    ['1', 1, 1],
    ['5', 1, 2],
    ['4', 4, 4],
  ])('TEST_WORKERS=%s on %i cores: %i', (setting, cores, workers) => {
    expect(testWorkers(setting, cores)).toBe(workers);
  });
});

describe('browserWorkers', () => {
  it.each([
    [undefined, 2, 2, 2],
    [undefined, 2, 1, 1],
    ['', 2, 2, 2],
    ['1', 2, 2, 1],
    ['2', 2, 1, 2],
    ['9', 2, 2, 3],
    ['0', 2, 2, 2],
    ['two', 2, 1, 1],
  ])('TEST_BROWSER_WORKERS=%s on %i cores, TEST_WORKERS giving %i: %i', (setting, cores, testWorkers, workers) => {
    expect(browserWorkers(setting, cores, testWorkers)).toBe(workers);
  });
});

describe('laneGroupWorkers', () => {
  it.each([
    [1, 1],
    [2, 3],
    [3, 4],
  ])('%i test workers: %i in the first group (one for the whole product)', (testWorkers, workers) => {
    expect(laneGroupWorkers(testWorkers)).toBe(workers);
  });
});

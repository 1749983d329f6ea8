import { pino } from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { kafkaDependency, postgresDependency, waitForDependencies, type Dependency } from '../src/wait-dependencies.js';
import { freePort } from '../../../tests/processes.js';

// A process started before PostgreSQL or Kafka waits for them (issue 20): live 200 and ready 503
// meanwhile on its own port, a line saying what it waits for, backoff 1 s, 2 s, 4 s…, then it goes on.

function captureLogger() {
  const lines: Array<{ msg: string; dependency?: string }> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as { msg: string });
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('waitForDependencies', () => {
  it('Kafka down for three tries: live, not ready, says so with growing waits, then returns and frees the port', async () => {
    const port = await freePort();
    let kafkaUp = false;
    const deps: Dependency[] = [
      { name: 'PostgreSQL', check: async () => {} },
      {
        name: 'Kafka',
        check: async () => {
          if (!kafkaUp) throw new Error('connect ECONNREFUSED');
        },
      },
    ];
    const waits: number[] = [];
    const probes: Array<[number, number, unknown]> = [];
    const { logger, lines } = captureLogger();
    await waitForDependencies(deps, {
      logger,
      port,
      host: '127.0.0.1',
      sleep: async (ms) => {
        waits.push(ms);
        const live = await fetch(`http://127.0.0.1:${port}/health/live`);
        const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
        probes.push([live.status, ready.status, await ready.json()]);
        if (waits.length === 3) kafkaUp = true;
      },
    });
    expect(waits).toEqual([1000, 2000, 4000]);
    for (const p of probes) expect(p).toEqual([200, 503, { status: 'waiting', waitingFor: ['Kafka'] }]);
    expect(lines.filter((l) => l.dependency === 'Kafka').map((l) => l.msg)).toEqual([
      'waiting for Kafka: trying again in 1 s',
      'waiting for Kafka: trying again in 2 s',
      'waiting for Kafka: trying again in 4 s',
    ]);
    expect(lines.some((l) => l.dependency === 'PostgreSQL')).toBe(false);
    // the temporary listener is gone: the app can listen on the port
    await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
  });

  it('the waits are capped at 30 s', async () => {
    let tries = 0;
    const waits: number[] = [];
    await waitForDependencies(
      [
        {
          name: 'Kafka',
          check: async () => {
            if (tries++ < 8) throw new Error('down');
          },
        },
      ],
      {
        logger: pino({ level: 'silent' }),
        sleep: async (ms) => void waits.push(ms),
      },
    );
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('everything up at once: no listener, no wait', async () => {
    const { logger, lines } = captureLogger();
    await waitForDependencies([{ name: 'Kafka', check: async () => {} }], { logger, port: 1, sleep: async () => expect.fail('waited') });
    expect(lines).toEqual([]);
  });

  it('the real checks: refused on a closed port, answered by the test servers', async () => {
    const closed = await freePort();
    await expect(kafkaDependency([`127.0.0.1:${closed}`], 'test').check()).rejects.toThrow();
    await expect(postgresDependency(`postgres://postgres@127.0.0.1:${closed}/postgres`).check()).rejects.toThrow();
    await expect(kafkaDependency([process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092'], 'test').check()).resolves.toBeUndefined();
    await expect(postgresDependency(process.env.TEST_DATABASE_URL!).check()).resolves.toBeUndefined();
  });
});

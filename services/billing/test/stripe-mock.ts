import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where stripe-mock may be: STRIPE_MOCK_BIN, PATH, then Go's bin folder (`go install` puts it there). */
function findStripeMock(): string | null {
  const candidates: string[] = [];
  if (process.env.STRIPE_MOCK_BIN) candidates.push(process.env.STRIPE_MOCK_BIN);
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir) candidates.push(join(dir, 'stripe-mock'));
  const gopath = spawnSync('go', ['env', 'GOPATH'], { encoding: 'utf8' });
  if (gopath.status === 0 && gopath.stdout.trim()) candidates.push(join(gopath.stdout.trim(), 'bin', 'stripe-mock'));
  candidates.push(
    join(homedir(), 'go', 'bin', 'stripe-mock'),
    '/usr/local/bin/stripe-mock',
    join(homedir(), '.local', 'bin', 'stripe-mock'),
  );
  return candidates.find((c) => existsSync(c)) ?? null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface StripeMock {
  url: string;
  stop(): Promise<void>;
}

/**
 * Stripe's official API mock on a free port. Missing is a failure with the way to install it, never
 * a skip: the Stripe path must be tested in CI (scripts/install-test-deps.sh installs it).
 */
export async function startStripeMock(): Promise<StripeMock> {
  const bin = findStripeMock();
  if (!bin) {
    throw new Error(
      'stripe-mock is not installed: run `bash scripts/install-test-deps.sh` or `go install github.com/stripe/stripe-mock@latest` ' +
        '(or set STRIPE_MOCK_BIN). The billing tests run the Stripe path against it.',
    );
  }
  const port = await freePort();
  const child: ChildProcess = spawn(bin, ['-http-port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (b) => (output += String(b)));
  child.stderr?.on('data', (b) => (output += String(b)));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`stripe-mock exited (${child.exitCode}): ${output.slice(-500)}`);
    try {
      const res = await fetch(`${url}/v1/products/prod_probe`, { headers: { authorization: 'Bearer sk_test_probe' } });
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`stripe-mock did not start within 30 s: ${output.slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

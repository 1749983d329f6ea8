import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
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

/** A request the product sent to Stripe: its form body decoded (Stripe's API takes form-encoded bodies). */
export interface StripeRequest {
  method: string;
  path: string;
  /** `line_items[0][tax_rates][0]` → value, as the SDK encoded it. */
  form: Record<string, string>;
}

export interface StripeMock {
  /** The recording front (what the product is given); it forwards every request to stripe-mock. */
  url: string;
  /** Every request the product sent, in order (stripe-mock validates them; this says what they were). */
  requests: StripeRequest[];
  stop(): Promise<void>;
}

/**
 * A front that records each request and passes it to stripe-mock unchanged: stripe-mock checks a request
 * against Stripe's OpenAPI description but keeps nothing, so what was sent (a tax rate on a line) can only
 * be read here.
 */
async function recordingFront(target: string, requests: StripeRequest[]) {
  const to = new URL(target);
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', target);
      const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : body.toString('utf8')));
      requests.push({ method: req.method ?? 'GET', path: url.pathname, form });
      const up = httpRequest(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      up.on('error', (err) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
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
  const requests: StripeRequest[] = [];
  const front = await recordingFront(url, requests);
  return {
    url: front.url,
    requests,
    async stop() {
      await front.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

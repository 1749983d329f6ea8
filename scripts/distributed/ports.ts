// The ports the launcher gives its processes (and the tests theirs).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A free port on 127.0.0.1 for a process the launcher (or a test) may stop and start again on the same
 * port: chosen below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999 by
 * default). A port inside that range, left closed while its process restarts, can be taken meanwhile by
 * an outgoing connection to it (a client retrying connects from that very port to itself, TCP's
 * simultaneous open) and then the process cannot listen there again.
 *
 * A port is free when asked but only taken when its process listens, so two callers choosing at the same
 * time may choose the same one: this process never hands out a port twice from the default range, and
 * under vitest each worker (VITEST_POOL_ID; the main process, which runs the global set-ups, and the
 * processes each starts inherit theirs) chooses from a slice of the range of its own (workerSlice), so
 * files running side by side never choose the same port (a fresh-clone run lost the whole product's
 * documents replica to a port another file's process had taken meanwhile).
 */
export async function freePort(range?: { from: number; below: number }): Promise<number> {
  const { from, below } = range ?? workerSlice(defaultRange(), process.env);
  for (let i = 0; i < 50; i++) {
    const port = from + Math.floor(Math.random() * (below - from));
    if (!range) {
      if (handedOut.has(port)) continue;
      // (taken before the check: a second call meanwhile must not choose it too)
      handedOut.add(port);
    }
    if (await portFree(port)) return port;
    if (!range) handedOut.delete(port);
  }
  // (a crowded machine: any free port the kernel gives)
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

/** The ports this process has handed out from the default range (a process hands out a few hundred at most). */
const handedOut = new Set<number>();

/** Below the ephemeral range: 20000 up to its start (at least the 2,000 ports before it). */
function defaultRange(): { from: number; below: number } {
  const [low] = ephemeralRange();
  return { from: Math.min(20_000, low - 2000), below: low };
}

/** How many slices the range is cut into under vitest: the main process and up to this many workers less one. */
export const WORKER_SLICES = 5;

/**
 * Under vitest (VITEST set), the slice of `range` for this process's worker: slice VITEST_POOL_ID (1, 2,
 * ...) modulo WORKER_SLICES, or 0 in the main process; elsewhere (the launcher run by hand) the whole range.
 */
export function workerSlice(range: { from: number; below: number }, env: NodeJS.ProcessEnv): { from: number; below: number } {
  if (!env.VITEST) return range;
  const pool = Number(env.VITEST_POOL_ID);
  const k = Number.isInteger(pool) && pool >= 1 ? pool % WORKER_SLICES : 0;
  const size = Math.floor((range.below - range.from) / WORKER_SLICES);
  return { from: range.from + k * size, below: range.from + (k + 1) * size };
}

/** The kernel's ephemeral port range (Linux; the default elsewhere). */
export function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high && low > 2000) return [low, high];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

export async function portFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });
}

// The ports the launcher gives its processes (and the tests theirs).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A free port on 127.0.0.1 for a process the launcher (or a test) may stop and start again on the same
 * port: chosen below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999 by
 * default). A port inside that range, left closed while its process restarts, can be taken meanwhile by
 * an outgoing connection to it (a client retrying connects from that very port to itself, TCP's
 * simultaneous open) and then the process cannot listen there again.
 */
export async function freePort(range?: { from: number; below: number }): Promise<number> {
  const [low] = ephemeralRange();
  const { from, below } = range ?? { from: Math.min(20_000, low - 2000), below: low };
  for (let i = 0; i < 50; i++) {
    const port = from + Math.floor(Math.random() * (below - from));
    if (await portFree(port)) return port;
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

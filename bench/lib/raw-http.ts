import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A minimal HTTP/1.1 keep-alive client for GET requests on loopback: one prebuilt request buffer,
 * responses framed by content-length or chunked encoding. It costs a fraction of node:http's client
 * per request, which matters when the load generator shares two cores with what it measures.
 */
export interface RawResponse {
  status: number;
  /** Milliseconds from writing the request to the last byte of the response. */
  ms: number;
}

export class RawConnection {
  private buf: Buffer = Buffer.alloc(0);
  private pending: { t0: number; resolve: (r: RawResponse) => void; reject: (e: Error) => void } | null = null;
  private closed = false;
  busy = false;

  private constructor(
    private readonly socket: Socket,
    private readonly request: Buffer,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onData(d));
    const fail = (err: Error) => {
      this.closed = true;
      const p = this.pending;
      this.pending = null;
      p?.reject(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
  }

  static open(host: string, port: number, request: Buffer): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const s = connect({ host, port }, () => {
        s.off('error', reject);
        resolve(new RawConnection(s, request));
      });
      s.once('error', reject);
    });
  }

  get usable() {
    return !this.closed && !this.busy;
  }

  send(): Promise<RawResponse> {
    this.busy = true;
    return new Promise((resolve, reject) => {
      this.pending = { t0: performance.now(), resolve, reject };
      this.socket.write(this.request);
    }).finally(() => (this.busy = false)) as Promise<RawResponse>;
  }

  close() {
    this.closed = true;
    this.socket.destroy();
  }

  private onData(d: Buffer) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    const end = parseResponse(this.buf);
    if (end === null) return;
    const status = Number(this.buf.toString('latin1', 9, 12));
    this.buf = this.buf.subarray(end);
    const p = this.pending;
    this.pending = null;
    p?.resolve({ status, ms: performance.now() - p.t0 });
  }
}

/** Byte length of the first complete response in buf, or null when more bytes are needed. */
export function parseResponse(buf: Buffer): number | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const bodyStart = headEnd + 4;
  const cl = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (cl) {
    const end = bodyStart + Number(cl[1]);
    return buf.length >= end ? end : null;
  }
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(head)) {
    let pos = bodyStart;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', pos);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.toString('latin1', pos, lineEnd), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size');
      if (size === 0) {
        // no trailers expected: the last chunk is followed by an empty line
        const end = buf.indexOf('\r\n', lineEnd + 2);
        return end < 0 ? null : end + 2;
      }
      pos = lineEnd + 2 + size + 2;
      if (buf.length < pos) return null;
    }
  }
  // no body (204/304) or a response we do not expect here
  return bodyStart;
}

/** The request bytes of a GET with the given headers (Host and keep-alive added). */
export function buildGet(url: URL, headers: Record<string, string> = {}): Buffer {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, 'connection: keep-alive'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
}

import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';

/**
 * A file being written under the key given to createWriter: bytes go to a temporary place (a part file
 * on disk, the parts of a multipart upload in an object store); only commit() makes it visible.
 */
export interface StorageWriter {
  /** Write a chunk, waiting when the store is behind (back-pressure): memory stays bounded. */
  write(chunk: Buffer): Promise<void>;
  /** Finish: the file appears under its key (a rename on disk, the multipart completion in an object store). */
  commit(): Promise<void>;
  /** Throw the partial file away (safe to call more than once, or after a failed commit). */
  abort(): Promise<void>;
}

/**
 * Where document bytes live: the local disk (all-in-one) or an S3 object store (distributed, see
 * s3-storage.ts: a multipart upload whose completion is the commit).
 */
export interface DocumentStorage {
  /** Start writing the file that commit() will put under `key` (storageKey()). */
  createWriter(key: string): Promise<StorageWriter>;
  read(key: string): Promise<{ stream: Readable; size: number }>;
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export const STORAGE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.[a-z0-9]+$/;

export class LocalDiskStorage implements DocumentStorage {
  private readonly root: string;
  private readonly tmp: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.tmp = join(this.root, '.tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.tmp, { recursive: true, mode: 0o700 });
    // Temporary files a crash left behind are never documents. Only old ones go: another replica on a
    // shared volume may be writing the recent ones.
    const cutoff = Date.now() - 60 * 60 * 1000;
    for (const name of await readdir(this.tmp)) {
      const p = join(this.tmp, name);
      const s = await stat(p).catch(() => null);
      if (s && s.mtimeMs < cutoff) await rm(p, { force: true });
    }
  }

  /** The absolute path of a key, refusing anything that would leave the root. */
  pathOf(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`bad storage key ${JSON.stringify(key)}`);
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error('storage key escapes the root');
    return p;
  }

  async createWriter(key: string): Promise<StorageWriter> {
    const target = this.pathOf(key);
    const tmpPath = join(this.tmp, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
    const out: WriteStream = createWriteStream(tmpPath, { flags: 'wx', mode: 0o600 });
    let failed: Error | null = null;
    out.on('error', (err) => {
      failed = err;
    });
    await once(out, 'open');
    let done = false;
    return {
      async write(chunk) {
        if (failed) throw failed;
        if (!out.write(chunk)) {
          // events.once rejects on 'error' and removes its listeners either way (a race of two once()
          // calls left an error listener behind on every wait).
          await once(out, 'drain');
          if (failed) throw failed;
        }
      },
      async commit() {
        if (failed) throw failed;
        await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
        if (failed) throw failed;
        await mkdir(dirname(target), { recursive: true, mode: 0o700 });
        await rename(tmpPath, target);
        done = true;
      },
      async abort() {
        if (done) return;
        done = true;
        out.destroy();
        await unlink(tmpPath).catch(() => {});
      },
    };
  }

  async read(key: string): Promise<{ stream: Readable; size: number }> {
    const p = this.pathOf(key);
    const s = await stat(p);
    return { stream: createReadStream(p), size: s.size };
  }

  async remove(key: string): Promise<void> {
    await unlink(this.pathOf(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }
}

/** `{clientId}/{documentType}/{timestamp}-{random}.{ext}`: every part is ours, none comes from the upload's name. */
export function storageKey(clientId: string, documentType: string, ext: string, now = Date.now()): string {
  const safeClient = clientId.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${safeClient}/${documentType}/${now}-${randomBytes(8).toString('hex')}.${ext}`;
}

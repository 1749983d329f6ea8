import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { STORAGE_KEY, type DocumentStorage, type StorageWriter } from './storage.js';

export interface S3StorageOptions {
  /** e.g. http://127.0.0.1:9000 (MinIO) or https://s3.eu-west-2.amazonaws.com */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** MinIO and most self-hosted stores want path-style addressing (http://host/bucket/key). */
  forcePathStyle: boolean;
  /** Bytes per multipart part (S3's minimum, 5 MiB, by default). */
  partSize?: number;
}

const MIB = 1024 * 1024;

/** A missing object, shaped like the disk's ENOENT so the routes answer 410 "no longer available" for both. */
function notFound(key: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`no object ${key}`);
  err.code = 'ENOENT';
  return err;
}

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException)
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
  return false;
}

/**
 * Document bytes in an S3-compatible object store (MinIO in our deployments), so every documents replica
 * serves every file. An upload streams into a multipart upload (@aws-sdk/lib-storage) through a
 * PassThrough with back-pressure: at most `partSize` × 2 bytes are held per upload. Nothing is visible
 * under the key until commit() completes the upload (a small file goes up as one PutObject at that
 * moment); abort() before that leaves no object, and aborts the multipart upload so no parts linger.
 */
export class S3DocumentStorage implements DocumentStorage {
  readonly client: S3Client;

  constructor(private readonly o: S3StorageOptions) {
    this.client = new S3Client({
      endpoint: o.endpoint,
      region: o.region,
      forcePathStyle: o.forcePathStyle,
      credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
      // MinIO and AWS both accept the SDK's default checksums; retry transient failures a few times.
      maxAttempts: 3,
    });
  }

  /** Fail fast at start when the store or the bucket cannot be reached. */
  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.o.bucket }));
    } catch (err) {
      throw new Error(
        `documents: the object store bucket "${this.o.bucket}" at ${this.o.endpoint} is not reachable (${err instanceof Error ? `${err.name}: ${err.message}` : String(err)})`,
        { cause: err },
      );
    }
  }

  private check(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`bad storage key ${JSON.stringify(key)}`);
    return key;
  }

  async createWriter(key: string): Promise<StorageWriter> {
    const Key = this.check(key);
    const body = new PassThrough({ highWaterMark: 256 * 1024 });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.o.bucket, Key, Body: body },
      partSize: Math.max(5 * MIB, this.o.partSize ?? 5 * MIB),
      queueSize: 1,
      // on failure the multipart upload is aborted: no orphaned parts
      leavePartsOnError: false,
    });
    // The upload's rejection, kept as thrown (boxed: whatever was thrown is rethrown as it was).
    let failed: { err: unknown } | null = null;
    const throwIfFailed = () => {
      if (failed) throw failed.err;
    };
    const done = upload.done().then(
      () => undefined,
      (err: unknown) => {
        failed = { err };
        throw err;
      },
    );
    // observed here; commit() awaits it and sees the same rejection
    done.catch(() => {});
    let state: 'open' | 'committed' | 'aborted' = 'open';
    return {
      async write(chunk) {
        throwIfFailed();
        if (!body.write(chunk)) {
          await Promise.race([once(body, 'drain'), done]);
          throwIfFailed();
        }
      },
      async commit() {
        if (state !== 'open') throw new Error(`commit after ${state}`);
        body.end();
        await done;
        state = 'committed';
      },
      async abort() {
        if (state !== 'open') return;
        state = 'aborted';
        await upload.abort().catch(() => {});
        body.destroy();
        await done.catch(() => {});
      },
    };
  }

  async read(key: string): Promise<{ stream: Readable; size: number }> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.o.bucket, Key: this.check(key) }));
      if (!(res.Body instanceof Readable)) throw new Error('the object store answered without a body stream');
      return { stream: res.Body, size: Number(res.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) throw notFound(key);
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    // S3 answers 204 for a key that is not there: removing twice is fine
    await this.client.send(new DeleteObjectCommand({ Bucket: this.o.bucket, Key: this.check(key) }));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.o.bucket, Key: this.check(key) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  close(): void {
    this.client.destroy();
  }
}

import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { letPostgresUserReach } from '../src/embedded-postgres.js';

// As root the embedded PostgreSQL runs as the postgres user, who must pass through every folder above its data.
describe('the data folder as root', () => {
  const base = mkdtempSync(join(tmpdir(), 'ch-pgdir-'));
  chmodSync(base, 0o755);
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('opens our own closed data folder for passing through, not for listing', () => {
    const own = join(base, 'own');
    mkdirSync(own, { mode: 0o700 });
    letPostgresUserReach(own);
    expect(statSync(own).mode & 0o777).toBe(0o701);
  });

  it('names a closed folder above the data folder and how to fix it', () => {
    const closed = join(base, 'closed');
    mkdirSync(join(closed, 'data'), { recursive: true });
    chmodSync(closed, 0o700);
    expect(() => letPostgresUserReach(join(closed, 'data'))).toThrow(`cannot pass through ${closed} `);
    expect(() => letPostgresUserReach(join(closed, 'data'))).toThrow('Set DATA_DIR');
  });
});

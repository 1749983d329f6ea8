import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Per process, how many warnings and errors (pino levels 40+) it logged after `since`, and the last few. */
export function afterStart(logDir: string, since: number): string {
  if (!existsSync(logDir)) return '';
  const out: string[] = [];
  for (const file of readdirSync(logDir).sort()) {
    const lines = readFileSync(join(logDir, file), 'utf8').split('\n');
    const bad: string[] = [];
    let other = 0;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const e = JSON.parse(line) as { level?: number; time?: number; msg?: string; err?: { message?: string }; error?: string };
        if ((e.level ?? 0) >= 40 && (e.time ?? 0) >= since)
          bad.push(`${e.level! >= 50 ? 'error' : 'warn'}: ${e.msg ?? ''} ${e.err?.message ?? e.error ?? ''}`.trim());
      } catch {
        other++;
      }
    }
    if (bad.length === 0) continue;
    out.push(`  ${file.replace(/\.log$/, '')}: ${bad.length}${other ? ` (+${other} unparsed lines)` : ''}`);
    for (const b of bad.slice(-3)) out.push(`    ${b.slice(0, 300)}`);
  }
  return out.join('\n');
}

import type { BenchContext, Scope } from './context.js';
import type { Check, Row } from './report.js';

/**
 * A bench section. To add one: write bench/sections/<name>.ts exporting a Section, and list it in
 * bench/sections/index.ts. `run` gets the shared context and a scope whose servers and databases
 * are removed when the section ends (errors included); it returns its rows, checks and notes.
 */
export interface Section {
  /** CLI name: `npm run bench -- <name>` */
  name: string;
  title: string;
  /** One line for `npm run bench -- --list`. */
  description: string;
  /** Shared resources it uses (e.g. 'identity'); each is stopped after the last section using it. */
  uses?: string[];
  run(ctx: BenchContext, scope: Scope): Promise<SectionOutput>;
}

export interface SectionOutput {
  rows: Row[];
  checks: Check[];
  notes?: string[];
}

import {
  ENGAGEMENT_MESSAGES,
  formatGBP,
  LETTER_PLACEHOLDERS,
  type LetterPlaceholder,
  type TemplateSet,
  enGbDate,
} from '@countinghouse/proto';
import { createHash } from 'node:crypto';
import { isPrintable, toPrintable } from './printable.js';

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;
const KNOWN = new Set<string>(LETTER_PLACEHOLDERS.map((p) => p.key));
const isPlaceholder = (name: string): name is LetterPlaceholder => KNOWN.has(name);

export type LetterValues = Record<LetterPlaceholder, string>;

export interface LetterFacts {
  practice: { name: string; email: string; phone: string };
  client: { name: string; contactName: string | null; email: string };
  packageName: string;
  /** GBP per month. */
  monthlyFee: number;
  /** London date the engagement (or this version of it) starts, YYYY-MM-DD. */
  startDate: string;
}

export function valuesOf(f: LetterFacts): LetterValues {
  return {
    practice_name: f.practice.name,
    practice_email: f.practice.email,
    practice_phone: f.practice.phone,
    client_name: f.client.name,
    contact_name: f.client.contactName || f.client.name,
    client_email: f.client.email,
    package: f.packageName,
    monthly_fee: formatGBP(f.monthlyFee),
    start_date: enGbDate(f.startDate),
  };
}

/** Fill the placeholders; every value is made printable, so the stored text is what the PDF shows. */
export function fill(template: string, values: LetterValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (isPlaceholder(name) ? toPrintable(values[name]) : whole));
}

export interface TemplateProblem {
  path: string;
  message: string;
}

/** What is wrong with a template set: unknown placeholders, unprintable characters, a package without its schedule. */
export function templateProblems(t: TemplateSet, packages: readonly string[]): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const sections: Array<[string, string]> = [
    ['/terms', t.terms],
    ['/privacy', t.privacy],
    ['/cancellation', t.cancellation],
    ...Object.entries(t.schedules).map(([k, v]): [string, string] => [`/schedules/${k}`, v]),
  ];
  for (const [path, text] of sections) {
    for (const m of text.matchAll(PLACEHOLDER)) {
      if (!KNOWN.has(m[1]!)) out.push({ path, message: ENGAGEMENT_MESSAGES.unknownPlaceholder(m[1]!) });
    }
    if (!isPrintable(text)) out.push({ path, message: ENGAGEMENT_MESSAGES.notPrintable });
  }
  for (const p of packages) {
    if (!t.schedules[p]?.trim()) out.push({ path: `/schedules/${p}`, message: ENGAGEMENT_MESSAGES.missingSchedule(p) });
  }
  return out;
}

export const LETTER_HEADINGS = {
  title: 'LETTER OF ENGAGEMENT',
  terms: 'STANDARD TERMS OF BUSINESS',
  schedule: 'SCHEDULE OF SERVICES',
  privacy: 'PRIVACY NOTICE',
  cancellation: 'YOUR RIGHT TO CANCEL',
} as const;

/**
 * The letter's whole text: the terms, the schedule of the client's package, the privacy notice, and
 * for a consumer the cancellation notice. Line endings are \n; this exact string is what is shown,
 * signed, hashed and printed.
 */
export function composeLetter(t: TemplateSet, f: LetterFacts, consumer: boolean): string {
  const v = valuesOf(f);
  const schedule = t.schedules[f.packageName] ?? `{{package}} at {{monthly_fee}} per month.`;
  const parts = [
    LETTER_HEADINGS.title,
    fill(`{{practice_name}} and {{client_name}}\nPackage: {{package}}, {{monthly_fee}} per month\nStarting {{start_date}}`, v),
    LETTER_HEADINGS.terms,
    fill(t.terms, v),
    `${LETTER_HEADINGS.schedule}: ${toPrintable(f.packageName)}`,
    fill(schedule, v),
    LETTER_HEADINGS.privacy,
    fill(t.privacy, v),
  ];
  if (consumer) parts.push(LETTER_HEADINGS.cancellation, fill(t.cancellation, v));
  return parts.map((p) => p.replace(/\r\n?/g, '\n').trim()).join('\n\n') + '\n';
}

/** SHA-256 of the letter's UTF-8 bytes, hex: what the signature certificate states. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

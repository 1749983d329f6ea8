import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { londonDateTime, utcDateTime } from '../../domain/dates.js';
import { LETTER_HEADINGS } from '../../domain/letter.js';
import { toPrintable } from '../../domain/printable.js';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const SIZE = 10.5;
const LEAD = 14.5;
const WIDTH = A4[0] - 2 * MARGIN;

export interface Certificate {
  letterVersion: number;
  clientName: string;
  packageName: string;
  practiceName: string;
  signerName: string;
  signerEmail: string;
  signedAt: Date;
  ip: string | null;
  userAgent: string | null;
  textSha256: string;
  cancellationEndsOn: string | null;
}

/** Break a paragraph into lines that fit the width (long words are cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  if (text === '') return [''];
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) out.push(line);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width) {
      let n = rest.length - 1;
      while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width) n--;
      out.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  out.push(line);
  return out;
}

const HEADINGS = new Set<string>([LETTER_HEADINGS.title, LETTER_HEADINGS.terms, LETTER_HEADINGS.privacy, LETTER_HEADINGS.cancellation]);
const isHeading = (line: string) => HEADINGS.has(line) || line.startsWith(`${LETTER_HEADINGS.schedule}: `);

class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.newPage();
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  line(text: string, bold = false, size = SIZE) {
    if (this.y < MARGIN + LEAD) this.newPage();
    this.page.drawText(text, { x: MARGIN, y: this.y, size, font: bold ? this.bold : this.regular, color: rgb(0.1, 0.1, 0.12) });
    this.y -= size + 4;
  }
  paragraph(text: string, bold = false, size = SIZE) {
    for (const l of wrap(text, bold ? this.bold : this.regular, size, WIDTH)) this.line(l, bold, size);
  }
  gap(n = LEAD / 2) {
    this.y -= n;
  }
}

/**
 * The signed letter as a PDF: the letter's exact text, line for line, then a signature certificate
 * page. Deterministic for the same input (dates set from the signature), so it can be re-made and
 * compared. Standard fonts only (pure JS, no font files); the letter's text is printable by
 * construction (domain/printable.ts).
 */
export async function renderSignedLetter(text: string, c: Certificate): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Engagement letter v${c.letterVersion}: ${toPrintable(c.clientName)}`);
  doc.setAuthor(toPrintable(c.practiceName));
  doc.setSubject(`Signed by ${c.signerName}; SHA-256 of the letter text ${c.textSha256}`);
  doc.setProducer('Countinghouse');
  doc.setCreator('Countinghouse engagement letters');
  doc.setCreationDate(c.signedAt);
  doc.setModificationDate(c.signedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const w = new Writer(doc, regular, bold);

  for (const raw of text.replace(/\n$/, '').split('\n')) {
    if (isHeading(raw)) {
      w.gap(4);
      w.paragraph(raw, true, raw === LETTER_HEADINGS.title ? 14 : 11.5);
      w.gap(2);
    } else {
      w.paragraph(raw);
    }
  }

  w.newPage();
  w.paragraph('SIGNATURE CERTIFICATE', true, 14);
  w.gap();
  w.paragraph(
    `This certificate records the electronic signature of the letter on the pages before it, which reproduce the letter's text exactly as it was signed.`,
  );
  w.gap();
  const rows: Array<[string, string]> = [
    ['Letter', `Engagement letter version ${c.letterVersion}`],
    ['Client', toPrintable(c.clientName)],
    ['Package', toPrintable(c.packageName)],
    ['Signed by', c.signerName],
    ['E-mail', toPrintable(c.signerEmail)],
    ['Signed (UTC)', utcDateTime(c.signedAt)],
    ['Signed (London)', londonDateTime(c.signedAt)],
    ['IP address', c.ip ?? 'not known'],
    ['User agent', toPrintable(c.userAgent ?? 'not known')],
    ['Method', 'Full name typed and agreement ticked in the client portal, signed in to the client account'],
  ];
  if (c.cancellationEndsOn)
    rows.push(['Cancellation period', `Ends at the end of ${c.cancellationEndsOn} (14 days, Consumer Contracts Regulations 2013)`]);
  for (const [k, v] of rows) {
    w.paragraph(k, true, 9.5);
    w.paragraph(v);
    w.gap(3);
  }
  w.gap();
  w.paragraph('SHA-256 of the letter text (UTF-8)', true, 9.5);
  w.paragraph(`SHA-256: ${c.textSha256}`, false, 9.5);
  return doc.save({ useObjectStreams: false });
}

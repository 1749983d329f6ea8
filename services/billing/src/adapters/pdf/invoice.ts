import { enGbDate, formatGBP, londonDate } from '@countinghouse/proto';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

export interface InvoiceFacts {
  kind: 'invoice' | 'credit_note';
  number: string;
  issuedAt: Date;
  practiceName: string;
  practiceAddress: string;
  vatNumber: string | null;
  clientName: string;
  email: string;
  description: string;
  net: number;
  vatRate: number;
  vat: number;
  gross: number;
}

/** Only what the PDF's standard font can print (WinAnsi): anything else becomes '?'. */
const printable = (s: string) => s.replace(/[^\x20-\x7E\u00A3\u00A0-\u00FF\u2013\u2014\u2018\u2019\u201C\u201D\u20AC]/g, '?');

/**
 * A VAT invoice (or credit note) as a one-page A4 PDF with every particular of VAT Regulations 1995
 * reg. 14(1): number, date (the time of supply is the payment date, the same day), the practice's
 * name, address and VAT number, the client's name, what was supplied, net, rate, VAT and total.
 */
export async function renderInvoice(f: InvoiceFacts): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = f.kind === 'invoice' ? 'VAT invoice' : 'Credit note';
  doc.setTitle(`${title} ${f.number}`);
  doc.setAuthor(printable(f.practiceName));
  doc.setCreationDate(f.issuedAt);
  doc.setModificationDate(f.issuedAt);
  const page = doc.addPage([595.28, 841.89]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let y = 785;
  const line = (text: string, o: { size?: number; font?: typeof regular; x?: number } = {}) => {
    page.drawText(printable(text), { x: o.x ?? 56, y, size: o.size ?? 10.5, font: o.font ?? regular, color: rgb(0.1, 0.1, 0.1) });
    y -= (o.size ?? 10.5) + 5;
  };
  line(f.practiceName, { size: 16, font: bold });
  for (const a of f.practiceAddress.split(/\r?\n|,\s*/).filter(Boolean)) line(a.trim());
  if (f.vatNumber) line(`VAT registration number: ${f.vatNumber}`);
  y -= 14;
  line(title, { size: 20, font: bold });
  line(`${f.kind === 'invoice' ? 'Invoice' : 'Credit note'} number: ${f.number}`);
  line(`Date of issue and time of supply: ${enGbDate(londonDate(f.issuedAt))}`);
  y -= 10;
  line('Billed to', { font: bold });
  line(f.clientName);
  line(f.email);
  y -= 14;
  const row = (label: string, amount: string, font = regular) => {
    page.drawText(printable(label), { x: 56, y, size: 10.5, font });
    const w = font.widthOfTextAtSize(amount, 10.5);
    page.drawText(printable(amount), { x: 539 - w, y, size: 10.5, font });
    y -= 17;
  };
  const sign = f.kind === 'credit_note' ? '-' : '';
  row('Description', 'Amount', bold);
  row(f.description, `${sign}${formatGBP(f.net)}`);
  row(`VAT at ${f.vatRate}%`, `${sign}${formatGBP(f.vat)}`);
  row('Total', `${sign}${formatGBP(f.gross)}`, bold);
  y -= 14;
  line(`Net ${formatGBP(f.net)} + VAT ${formatGBP(f.vat)} = ${formatGBP(f.gross)}, paid by card.`);
  return doc.save({ useObjectStreams: false });
}

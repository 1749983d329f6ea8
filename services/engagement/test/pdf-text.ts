import { inflateSync } from 'node:zlib';

// WinAnsi bytes 0x80-0x9F (PDF 32000-1 annex D); the rest of the range is Latin-1.
const WIN_ANSI_80 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWinAnsi(bytes: Buffer): string {
  let s = '';
  for (const b of bytes) s += b >= 0x80 && b <= 0x9f ? WIN_ANSI_80[b - 0x80] : String.fromCharCode(b);
  return s;
}

/**
 * The text lines shown by a PDF made with standard fonts: every content stream inflated, every
 * `<hex> Tj` string decoded. Independent of the renderer's code: it reads only the PDF's bytes.
 */
export function pdfTextLines(pdf: Buffer): string[] {
  const src = pdf.toString('latin1');
  const lines: string[] = [];
  const streamRe = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let m = streamRe.exec(src); m; m = streamRe.exec(src)) {
    const dict = m[1]!;
    const start = m.index + m[0].length;
    const len = /\/Length (\d+)/.exec(dict);
    const end = len ? start + Number(len[1]) : src.indexOf('endstream', start);
    const raw = pdf.subarray(start, end);
    let body: string;
    try {
      body = (/\/FlateDecode/.test(dict) ? inflateSync(raw) : raw).toString('latin1');
    } catch {
      continue;
    }
    for (const t of body.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) lines.push(decodeWinAnsi(Buffer.from(t[1]!, 'hex')));
  }
  return lines;
}

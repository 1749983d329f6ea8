// What the signed PDF can print: its standard font (Helvetica) is WinAnsi-encoded (PDF 32000-1, annex D).

const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

function isPrintableChar(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if (c === 0x0a || c === 0x09) return true;
  if (c >= 0x20 && c <= 0x7e) return true;
  if (c >= 0xa0 && c <= 0xff) return true;
  return WIN_ANSI_EXTRA.includes(ch);
}

export function isPrintable(s: string): boolean {
  for (const ch of s) if (!isPrintableChar(ch)) return false;
  return true;
}

/**
 * A value that goes into a letter (a client's name from crm) made printable: accents the font lacks
 * are dropped (NFKD), anything else unprintable becomes '?'. The letter's stored text is this printable
 * text, so the PDF shows exactly the text that was signed and hashed.
 */
export function toPrintable(s: string): string {
  if (isPrintable(s)) return s;
  let out = '';
  for (const ch of s) {
    if (isPrintableChar(ch)) {
      out += ch;
      continue;
    }
    const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    out += base && isPrintable(base) ? base : '?';
  }
  return out;
}

/** Who the practice's e-mail comes from. */
export interface Sender {
  name: string;
  address: string;
}

/**
 * The From of the practice's e-mail. MAIL_FROM wins when set ("Name <address>" or a bare address,
 * whose display name is then the practice's); otherwise the practice e-mail from Company Settings, so
 * mail leaves from an address a real relay accepts (never a made-up .local one) and follows a change
 * made in /admin/settings. The display name is handed to nodemailer as a name, not pasted into a
 * header string: it quotes it per RFC 5322 3.4 ("Smith, Jones & Co" keeps its comma) and encodes
 * non-ASCII per RFC 2047.
 */
export function senderOf(o: { mailFrom: string; practiceName: string; practiceEmail: string }): Sender {
  const configured = o.mailFrom.trim();
  if (configured) {
    const m = /^(.*)<([^<>\s]+@[^<>\s]+)>\s*$/.exec(configured);
    if (m) {
      const name = m[1]!
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .replace(/\\(.)/g, '$1');
      return { name: name || o.practiceName, address: m[2]! };
    }
    return { name: o.practiceName, address: configured };
  }
  return { name: o.practiceName, address: o.practiceEmail.trim() };
}

/**
 * One normal form for request paths, so every guard decides on the string the router routes.
 *
 * Fastify's router (find-my-way) percent-decodes a path before matching it (`/%61pi/x` matches `/api/x`)
 * while a guard reading `request.url` saw the raw text: the gateway's sign-in limit, token gate and
 * cross-site refusal could be walked around with an encoded letter. createApp therefore rewrites every
 * request's URL to this form before routing (Fastify `rewriteUrl`), and `request.url` (what the guards
 * read and what the distributed proxy forwards) is the normal form.
 *
 * The normal form (RFC 3986 6.2.2): percent-encoded unreserved characters (A-Z a-z 0-9 - . _ ~) decoded,
 * other percent-encodings kept with upper-case hex, empty segments (`//`) dropped, `.` and `..` segments
 * resolved. The query string is left as it came. Refused (400): a target that is not an absolute path,
 * an encoded slash or backslash (`%2F`, `%5C`) or a raw backslash, `..` above the root, invalid
 * percent-encoding or UTF-8, NUL or any other control character, a raw `#` in the path.
 * Case and `;` are left alone: the router is case-sensitive and treats `;` as an ordinary character,
 * so `/API/x` and `/api/x;a` are simply paths no route has.
 */
export type NormalisedTarget = { ok: true; url: string; path: string } | { ok: false; reason: string };

const UNRESERVED = /[A-Za-z0-9\-._~]/;
// Anything that may need work: a percent sign, a backslash, a fragment, a control or non-ASCII
// character, a doubled slash, or a dot segment. Paths without any of these are already normal.
// eslint-disable-next-line no-control-regex
const NEEDS_WORK = /[%\\#\u0000-\u0020\u007f-\uffff]|\/\/|\/\.(?:\/|\.?(?:\/|$)|$)/;

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

export function normaliseRequestTarget(url: string): NormalisedTarget {
  const q = url.indexOf('?');
  const raw = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  if (raw.charCodeAt(0) !== 47 /* / */) return { ok: false, reason: 'not an absolute path' };
  if (!NEEDS_WORK.test(raw)) return { ok: true, url, path: raw };

  // 1. percent-decoding of unreserved characters, refusing what must never be in a path
  let decoded = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 37 /* % */) {
      const hi = hexValue(raw.charCodeAt(i + 1));
      const lo = hexValue(raw.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) return { ok: false, reason: 'invalid percent-encoding' };
      const byte = hi * 16 + lo;
      if (byte === 0x2f || byte === 0x5c) return { ok: false, reason: 'encoded slash or backslash' };
      if (byte < 0x20 || byte === 0x7f) return { ok: false, reason: 'control character' };
      const ch = String.fromCharCode(byte);
      decoded += UNRESERVED.test(ch) ? ch : `%${raw.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
      continue;
    }
    if (c === 92 /* \ */) return { ok: false, reason: 'backslash' };
    if (c === 35 /* # */) return { ok: false, reason: 'fragment in the request target' };
    if (c <= 0x20 || c >= 0x7f) return { ok: false, reason: 'control or non-ASCII character' };
    decoded += raw[i];
  }
  try {
    decodeURI(decoded); // the router decodes the rest: it must be valid UTF-8
  } catch {
    return { ok: false, reason: 'invalid UTF-8' };
  }

  // 2. duplicate slashes and dot segments
  const segments = decoded.split('/');
  const out: string[] = [];
  let trailing = false;
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i]!;
    const last = i === segments.length - 1;
    if (s === '' || s === '.') {
      trailing = last;
      continue;
    }
    if (s === '..') {
      if (out.length === 0) return { ok: false, reason: 'path above the root' };
      out.pop();
      trailing = last;
      continue;
    }
    out.push(s);
    trailing = false;
  }
  const path = `/${out.join('/')}${trailing && out.length > 0 ? '/' : ''}`;
  return { ok: true, url: path + query, path };
}

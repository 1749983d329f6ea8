import { isIP } from 'node:net';

/**
 * HMRC fraud prevention headers for connection method WEB_APP_VIA_SERVER ("You must submit data for
 * all of these headers": developer.service.hmrc.gov.uk/guides/fraud-prevention/connection-method/
 * web-app-via-server/, copy in provider-specs/hmrc/fraud-prevention). Formats from the header pages
 * and "getting it right": key-value structures joined by '&', lists by ',', every key and value
 * percent encoded (separators not), timestamps in UTC with T and Z.
 */
export const FRAUD_HEADERS = [
  'Gov-Client-Connection-Method',
  'Gov-Client-Browser-JS-User-Agent',
  'Gov-Client-Device-ID',
  'Gov-Client-Multi-Factor',
  'Gov-Client-Public-IP',
  'Gov-Client-Public-IP-Timestamp',
  'Gov-Client-Public-Port',
  'Gov-Client-Screens',
  'Gov-Client-Timezone',
  'Gov-Client-User-IDs',
  'Gov-Client-Window-Size',
  'Gov-Vendor-Forwarded',
  'Gov-Vendor-License-IDs',
  'Gov-Vendor-Product-Name',
  'Gov-Vendor-Public-IP',
  'Gov-Vendor-Version',
] as const;
export type FraudHeader = (typeof FRAUD_HEADERS)[number];

/** What the staff member's browser reported (proto's MtdDevice). */
export interface BrowserData {
  userAgent: string;
  deviceId: string;
  screens: Array<{ width: number; height: number; scalingFactor: number; colourDepth: number }>;
  windowSize: { width: number; height: number };
  utcOffsetMinutes: number;
}

/** What the server knows of the request and itself. */
export interface ServerData {
  clientIp: string;
  clientPort: number;
  /** When the client IP was read (the request's arrival). */
  collectedAt: Date;
  /** The staff member's user id in the product (Gov-Client-User-IDs). */
  userId: string;
  /** Two-factor sign-ins of the staff member: a TOTP factor, hashed reference (empty when none). */
  multiFactor: Array<{ type: 'TOTP' | 'AUTH_CODE' | 'OTHER'; at: Date; reference: string }>;
  vendorPublicIp: string;
  productName: string;
  productVersion: string;
  /** Our frontend's version (the second Gov-Vendor-Version pair). */
  frontendVersion: string;
}

const enc = encodeURIComponent;
const kv = (pairs: Array<[string, string | number]>) => pairs.map(([k, v]) => `${enc(k)}=${enc(String(v))}`).join('&');

function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** The sixteen headers from the browser's and the server's data. */
export function fraudHeaders(b: BrowserData, s: ServerData): Record<FraudHeader, string> {
  const vendorIp = s.vendorPublicIp;
  return {
    'Gov-Client-Connection-Method': 'WEB_APP_VIA_SERVER',
    'Gov-Client-Browser-JS-User-Agent': b.userAgent,
    'Gov-Client-Device-ID': b.deviceId,
    // "If you authenticate with username and password only, you will not be able to collect a value":
    // then the header is sent empty (getting-it-right: missing data).
    'Gov-Client-Multi-Factor': s.multiFactor
      .map((f) =>
        kv([
          ['type', f.type],
          ['timestamp', `${f.at.toISOString().slice(0, 16)}Z`],
          ['unique-reference', f.reference],
        ]),
      )
      .join(','),
    'Gov-Client-Public-IP': s.clientIp,
    'Gov-Client-Public-IP-Timestamp': s.collectedAt.toISOString(),
    'Gov-Client-Public-Port': String(s.clientPort),
    'Gov-Client-Screens': b.screens
      .map((x) =>
        kv([
          ['width', x.width],
          ['height', x.height],
          ['scaling-factor', x.scalingFactor],
          ['colour-depth', x.colourDepth],
        ]),
      )
      .join(','),
    'Gov-Client-Timezone': utcOffset(b.utcOffsetMinutes),
    'Gov-Client-User-IDs': kv([[s.productName.toLowerCase().replace(/\s+/g, '-'), s.userId]]),
    'Gov-Client-Window-Size': kv([
      ['width', b.windowSize.width],
      ['height', b.windowSize.height],
    ]),
    'Gov-Vendor-Forwarded': kv([
      ['by', vendorIp],
      ['for', s.clientIp],
    ]),
    // No licence keys on the originating device (a web app): sent empty (missing data, as the guide says).
    'Gov-Vendor-License-IDs': '',
    'Gov-Vendor-Product-Name': enc(s.productName),
    'Gov-Vendor-Public-IP': vendorIp,
    'Gov-Vendor-Version': kv([
      [`${s.productName.toLowerCase().replace(/\s+/g, '-')}-web`, s.frontendVersion],
      [`${s.productName.toLowerCase().replace(/\s+/g, '-')}-server`, s.productVersion],
    ]),
  };
}

// --- validation (used by the tests on every call sent to the mock; HMRC's own validator API has no copy here) ---

/** Percent-encoded text: no reserved separator left unencoded, every % followed by two hex digits. */
const ENCODED = /^(?:[A-Za-z0-9\-._~!*'()]|%[0-9A-F]{2})*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const POSITIVE_INT = /^[1-9][0-9]*$/;

function keyValues(v: string): Map<string, string> | null {
  const m = new Map<string, string>();
  for (const part of v.split('&')) {
    const [k, val, extra] = part.split('=');
    if (extra !== undefined || !k || val === undefined || !ENCODED.test(k) || !ENCODED.test(val)) return null;
    m.set(decodeURIComponent(k), decodeURIComponent(val));
  }
  return m;
}

function publicIp(v: string): boolean {
  return isIP(v) !== 0;
}

type Check = (v: string) => string | null;
const CHECKS: Record<FraudHeader, Check> = {
  'Gov-Client-Connection-Method': (v) => (v === 'WEB_APP_VIA_SERVER' ? null : 'must be WEB_APP_VIA_SERVER'),
  'Gov-Client-Browser-JS-User-Agent': (v) => (/^\S+\/\S+/.test(v) ? null : 'must be the browser’s user agent (product/version ...)'),
  'Gov-Client-Device-ID': (v) => (UUID.test(v) ? null : 'must be a UUID'),
  'Gov-Client-Multi-Factor': (v) => {
    if (v === '') return null;
    for (const item of v.split(',')) {
      const m = keyValues(item);
      if (!m || !['TOTP', 'AUTH_CODE', 'OTHER'].includes(m.get('type') ?? '')) return 'type must be TOTP, AUTH_CODE or OTHER';
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/.test(m.get('timestamp') ?? ''))
        return 'timestamp must be yyyy-MM-ddThh:mmZ';
      if (!m.get('unique-reference')) return 'unique-reference is required';
    }
    return null;
  },
  'Gov-Client-Public-IP': (v) => (publicIp(v) ? null : 'must be an IPv4 or IPv6 address'),
  'Gov-Client-Public-IP-Timestamp': (v) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v) ? null : 'must be yyyy-MM-ddThh:mm:ss.sssZ',
  'Gov-Client-Public-Port': (v) =>
    POSITIVE_INT.test(v) && Number(v) <= 65535 && v !== '80' && v !== '443' ? null : 'must be the client’s port (1-65535, not 80/443)',
  'Gov-Client-Screens': (v) => {
    for (const item of v.split(',')) {
      const m = keyValues(item);
      if (!m) return 'must be key-value lists';
      for (const k of ['width', 'height', 'colour-depth'])
        if (!POSITIVE_INT.test(m.get(k) ?? '')) return `${k} must be a positive whole number`;
      if (!/^\d+(\.\d+)?$/.test(m.get('scaling-factor') ?? '') || Number(m.get('scaling-factor')) <= 0)
        return 'scaling-factor must be a positive number';
    }
    return null;
  },
  'Gov-Client-Timezone': (v) => (/^UTC[+-](0\d|1[0-4]):[0-5]\d$/.test(v) ? null : 'must be UTC±hh:mm'),
  'Gov-Client-User-IDs': (v) => (keyValues(v)?.size ? null : 'must be a key-value structure of user identifiers'),
  'Gov-Client-Window-Size': (v) => {
    const m = keyValues(v);
    return m && POSITIVE_INT.test(m.get('width') ?? '') && POSITIVE_INT.test(m.get('height') ?? '')
      ? null
      : 'must be width=..&height=.. (positive whole numbers)';
  },
  'Gov-Vendor-Forwarded': (v) => {
    for (const hop of v.split(',')) {
      const m = keyValues(hop);
      if (!m || !publicIp(m.get('by') ?? '') || !publicIp(m.get('for') ?? '')) return 'each hop must be by=<ip>&for=<ip>';
    }
    return null;
  },
  'Gov-Vendor-License-IDs': (v) => (v === '' || keyValues(v) ? null : 'must be software-name=hashed-licence pairs'),
  'Gov-Vendor-Product-Name': (v) => (v && ENCODED.test(v) ? null : 'must be the percent-encoded product name'),
  'Gov-Vendor-Public-IP': (v) => (publicIp(v) ? null : 'must be an IPv4 or IPv6 address'),
  'Gov-Vendor-Version': (v) => {
    const m = keyValues(v);
    return m && m.size >= 2 ? null : 'must have at least two software=version pairs (server and client)';
  },
};

/** Problems with a request's fraud prevention headers (header names are case-insensitive): empty when valid. */
export function validateFraudHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): string[] {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : v]));
  const problems: string[] = [];
  for (const name of FRAUD_HEADERS) {
    const v = lower.get(name.toLowerCase());
    if (v === undefined) problems.push(`${name}: missing`);
    else {
      const p = CHECKS[name](v);
      if (p) problems.push(`${name}: ${p}`);
    }
  }
  return problems;
}

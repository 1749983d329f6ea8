import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IntegrationsConfigSchema, parseIntegrationsConfig } from '../src/config.js';
import { providerSettings } from '../src/config.js';
import { dayOf, summarise, toBase, ukDay } from '../src/domain/summary.js';
import { pkceChallenge, TokenCipher } from '../src/domain/token-cipher.js';

describe('summary', () => {
  it('adds outstanding amounts in pence, overdue when due before today', () => {
    const s = summarise({
      currency: 'GBP',
      today: '2026-05-10',
      contacts: 4,
      invoices: 3,
      bills: 2,
      items: [
        { kind: 'receivable', amountDue: 0.1, dueDate: '2026-05-09' },
        { kind: 'receivable', amountDue: 0.2, dueDate: '2026-05-10' },
        { kind: 'receivable', amountDue: 0, dueDate: '2020-01-01' },
        { kind: 'payable', amountDue: 19.99, dueDate: null },
        { kind: 'payable', amountDue: 5.01, dueDate: '2026-01-01' },
      ],
    });
    expect(s).toEqual({
      currency: 'GBP',
      receivables: 0.3,
      payables: 25,
      overdue_receivables: 0.1,
      overdue_payables: 5.01,
      contacts: 4,
      invoices: 3,
      bills: 2,
    });
  });

  it('reads both providers’ date forms and converts currencies', () => {
    expect(dayOf('/Date(1579046400000+0000)/')).toBe('2020-01-15');
    expect(dayOf('2018-02-15T00:00:00')).toBe('2018-02-15');
    expect(dayOf('2024-01-31')).toBe('2024-01-31');
    expect(dayOf('soon')).toBeNull();
    expect(dayOf(undefined)).toBeNull();
    expect(toBase(130, 1.3, 'divide')).toBeCloseTo(100);
    expect(toBase(115, 0.87, 'multiply')).toBeCloseTo(100.05);
    expect(toBase(50, 0, 'divide')).toBe(50);
    expect(ukDay(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
  });
});

describe('token cipher', () => {
  it('round-trips, uses a fresh IV each time, and refuses another context, key or a changed byte', () => {
    const key = randomBytes(32);
    const c = new TokenCipher(key);
    const a = c.encrypt('secret-token', 'id-1:access');
    expect(a).not.toContain('secret-token');
    expect(c.encrypt('secret-token', 'id-1:access')).not.toBe(a);
    expect(c.decrypt(a, 'id-1:access')).toBe('secret-token');
    expect(() => c.decrypt(a, 'id-2:access')).toThrow();
    expect(() => new TokenCipher(randomBytes(32)).decrypt(a, 'id-1:access')).toThrow();
    const parts = a.split('.');
    parts[3] = Buffer.from('x' + Buffer.from(parts[3]!, 'base64url').toString('latin1').slice(1), 'latin1').toString('base64url');
    expect(() => c.decrypt(parts.join('.'), 'id-1:access')).toThrow();
    expect(() => new TokenCipher(randomBytes(16))).toThrow();
  });

  it('PKCE S256 matches RFC 7636 appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});

describe('config', () => {
  it('a provider is configured only with both its id and secret; half a pair refuses to start', () => {
    const none = providerSettings(parseIntegrationsConfig({}), 'https://app.example.co.uk/');
    expect(none.xero.configured).toBe(false);
    expect(none.xero.redirectUri).toBe('https://app.example.co.uk/api/integrations/xero/callback');
    expect(none.quickbooks.authUrl).toBe('https://appcenter.intuit.com/connect/oauth2');
    const both = providerSettings(parseIntegrationsConfig({ XERO_CLIENT_ID: 'a', XERO_CLIENT_SECRET: 'b' }), 'http://x');
    expect(both.xero.configured).toBe(true);
    expect(() => providerSettings(parseIntegrationsConfig({ QUICKBOOKS_CLIENT_ID: 'a' }), 'http://x')).toThrow(/set both or neither/);
    expect(Object.keys(IntegrationsConfigSchema.properties)).toContain('XERO_API_URL');
  });
});

import { ConfigError, parseConfig } from '@countinghouse/kit';
import type { IntegrationType } from '@countinghouse/proto';
import { Type, type Static } from '@sinclair/typebox';

/**
 * The integrations settings, parsed once at start. Each provider is optional as a group: with neither
 * its client id nor its secret the provider is "not configured" (Connect explains so); with only one
 * of them the service refuses to start. Every provider address can be moved (tests point them at
 * local servers).
 */
export const IntegrationsConfigSchema = Type.Object({
  /** base64 of 32 random bytes. Required in distributed mode; all-in-one keeps one in DATA_DIR/keys. */
  INTEGRATIONS_ENCRYPTION_KEY: Type.String({ default: '' }),
  /** A file holding the key instead (docker-compose: made once by keygen); it wins over the inline key. */
  INTEGRATIONS_ENCRYPTION_KEY_FILE: Type.String({ default: '' }),
  XERO_CLIENT_ID: Type.String({ default: '' }),
  XERO_CLIENT_SECRET: Type.String({ default: '' }),
  /** Default: PUBLIC_URL + /api/integrations/xero/callback (register it in the Xero app). */
  XERO_REDIRECT_URI: Type.String({ default: '' }),
  /** Xero's granular scopes (apps created since March 2026; older apps may use accounting.transactions.read and
   * accounting.reports.read). The profit and loss report feeds MTD quarterly updates (issue 31). */
  XERO_SCOPES: Type.String({
    default:
      'offline_access accounting.settings.read accounting.contacts.read accounting.invoices.read accounting.reports.profitandloss.read',
  }),
  XERO_AUTH_URL: Type.String({ default: 'https://login.xero.com/identity/connect/authorize' }),
  XERO_TOKEN_URL: Type.String({ default: 'https://identity.xero.com/connect/token' }),
  XERO_REVOKE_URL: Type.String({ default: 'https://identity.xero.com/connect/revocation' }),
  XERO_CONNECTIONS_URL: Type.String({ default: 'https://api.xero.com/connections' }),
  /** The Accounting API base (…/api.xro/2.0). */
  XERO_API_URL: Type.String({ default: 'https://api.xero.com/api.xro/2.0' }),
  QUICKBOOKS_CLIENT_ID: Type.String({ default: '' }),
  QUICKBOOKS_CLIENT_SECRET: Type.String({ default: '' }),
  /** Default: PUBLIC_URL + /api/integrations/quickbooks/callback. */
  QUICKBOOKS_REDIRECT_URI: Type.String({ default: '' }),
  QUICKBOOKS_SCOPES: Type.String({ default: 'com.intuit.quickbooks.accounting' }),
  QUICKBOOKS_AUTH_URL: Type.String({ default: 'https://appcenter.intuit.com/connect/oauth2' }),
  QUICKBOOKS_TOKEN_URL: Type.String({ default: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer' }),
  QUICKBOOKS_REVOKE_URL: Type.String({ default: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke' }),
  /** Production; the sandbox is https://sandbox-quickbooks.api.intuit.com. */
  QUICKBOOKS_API_URL: Type.String({ default: 'https://quickbooks.api.intuit.com' }),
  /** The minor version of the QuickBooks Online API to ask for. */
  QUICKBOOKS_MINOR_VERSION: Type.String({ default: '75' }),
  /**
   * HMRC (Making Tax Digital for Income Tax, issue 31): the practice's agent application. With neither
   * id nor secret MTD runs offline (scope lists, income and figures kept; nothing sent to HMRC).
   */
  HMRC_CLIENT_ID: Type.String({ default: '' }),
  HMRC_CLIENT_SECRET: Type.String({ default: '' }),
  /** Production; HMRC's sandbox is https://test-api.service.hmrc.gov.uk. OAuth lives on the same host. */
  HMRC_BASE_URL: Type.String({ default: 'https://api.service.hmrc.gov.uk' }),
  /** Default: PUBLIC_URL + /api/integrations/mtd/callback (register it in the HMRC application). */
  HMRC_REDIRECT_URI: Type.String({ default: '' }),
  /** Fraud prevention: the public IP address the practice's servers are reached on (Gov-Vendor-Public-IP). */
  HMRC_VENDOR_PUBLIC_IP: Type.String({ default: '' }),
  /** Fraud prevention: Gov-Vendor-Product-Name and the server's version (Gov-Vendor-Version). */
  HMRC_PRODUCT_NAME: Type.String({ default: 'Countinghouse' }),
  HMRC_PRODUCT_VERSION: Type.String({ default: '1.0.0' }),
  /** One provider call's time limit. */
  INTEGRATIONS_PROVIDER_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 20_000 }),
  /** Xero's limits per organisation (tenant): the budget syncs are spread over. */
  XERO_CALLS_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  XERO_CALLS_PER_DAY: Type.Integer({ minimum: 1, default: 5000 }),
  /** A sync job's attempts, and the first wait before a retry (doubling each time). */
  INTEGRATIONS_SYNC_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
  INTEGRATIONS_SYNC_BACKOFF_MS: Type.Integer({ minimum: 0, default: 2000 }),
});
export type IntegrationsConfig = Static<typeof IntegrationsConfigSchema>;

export interface ProviderSettings {
  provider: IntegrationType;
  /** False when this server has no app credentials for the provider. */
  configured: boolean;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string;
  /** Xero supports PKCE for web apps too; Intuit documents the plain code flow. */
  pkce: boolean;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiUrl: string;
  /** Xero only. */
  connectionsUrl: string;
  minorVersion: string;
  /** One call's time limit, in milliseconds. */
  timeoutMs: number;
}

export type ProvidersSettings = Record<IntegrationType, ProviderSettings>;

/** HMRC's settings (MTD for Income Tax). */
export interface HmrcSettings {
  configured: boolean;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  baseUrl: string;
  authUrl: string;
  tokenUrl: string;
  /** Agent Authorisation 2.0 scopes and the Income Tax APIs' read/write scopes (FLOW.md). */
  scopes: string;
  vendorPublicIp: string;
  productName: string;
  productVersion: string;
  timeoutMs: number;
}

export function hmrcSettings(c: IntegrationsConfig, publicUrl: string): HmrcSettings {
  if (Boolean(c.HMRC_CLIENT_ID) !== Boolean(c.HMRC_CLIENT_SECRET))
    throw new ConfigError('Invalid configuration:\n  - HMRC_CLIENT_ID and HMRC_CLIENT_SECRET: set both or neither');
  const base = trimSlash(c.HMRC_BASE_URL);
  return {
    configured: Boolean(c.HMRC_CLIENT_ID && c.HMRC_CLIENT_SECRET),
    clientId: c.HMRC_CLIENT_ID,
    clientSecret: c.HMRC_CLIENT_SECRET,
    redirectUri: c.HMRC_REDIRECT_URI || `${trimSlash(publicUrl)}/api/integrations/mtd/callback`,
    baseUrl: base,
    authUrl: `${base}/oauth/authorize`,
    tokenUrl: `${base}/oauth/token`,
    scopes:
      'read:sent-invitations write:sent-invitations write:cancel-invitations read:check-relationship read:self-assessment write:self-assessment',
    vendorPublicIp: c.HMRC_VENDOR_PUBLIC_IP,
    productName: c.HMRC_PRODUCT_NAME,
    productVersion: c.HMRC_PRODUCT_VERSION,
    timeoutMs: c.INTEGRATIONS_PROVIDER_TIMEOUT_MS,
  };
}

export function parseIntegrationsConfig(env: Record<string, string | undefined> = process.env): IntegrationsConfig {
  return parseConfig(IntegrationsConfigSchema, env);
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** Settings per provider, from the parsed config. Throws ConfigError when a provider is half configured. */
export function providerSettings(c: IntegrationsConfig, publicUrl: string): ProvidersSettings {
  const half: string[] = [];
  const group = (id: string, secret: string, name: string) => {
    if (Boolean(id) !== Boolean(secret)) half.push(`  - ${name}_CLIENT_ID and ${name}_CLIENT_SECRET: set both or neither`);
    return Boolean(id && secret);
  };
  const xeroConfigured = group(c.XERO_CLIENT_ID, c.XERO_CLIENT_SECRET, 'XERO');
  const qbConfigured = group(c.QUICKBOOKS_CLIENT_ID, c.QUICKBOOKS_CLIENT_SECRET, 'QUICKBOOKS');
  if (half.length > 0) throw new ConfigError(`Invalid configuration:\n${half.join('\n')}`);
  const base = trimSlash(publicUrl);
  return {
    xero: {
      provider: 'xero',
      configured: xeroConfigured,
      clientId: c.XERO_CLIENT_ID,
      clientSecret: c.XERO_CLIENT_SECRET,
      redirectUri: c.XERO_REDIRECT_URI || `${base}/api/integrations/xero/callback`,
      scopes: c.XERO_SCOPES,
      pkce: true,
      authUrl: c.XERO_AUTH_URL,
      tokenUrl: c.XERO_TOKEN_URL,
      revokeUrl: c.XERO_REVOKE_URL,
      apiUrl: trimSlash(c.XERO_API_URL),
      connectionsUrl: c.XERO_CONNECTIONS_URL,
      minorVersion: '',
      timeoutMs: c.INTEGRATIONS_PROVIDER_TIMEOUT_MS,
    },
    quickbooks: {
      provider: 'quickbooks',
      configured: qbConfigured,
      clientId: c.QUICKBOOKS_CLIENT_ID,
      clientSecret: c.QUICKBOOKS_CLIENT_SECRET,
      redirectUri: c.QUICKBOOKS_REDIRECT_URI || `${base}/api/integrations/quickbooks/callback`,
      scopes: c.QUICKBOOKS_SCOPES,
      pkce: false,
      authUrl: c.QUICKBOOKS_AUTH_URL,
      tokenUrl: c.QUICKBOOKS_TOKEN_URL,
      revokeUrl: c.QUICKBOOKS_REVOKE_URL,
      apiUrl: trimSlash(c.QUICKBOOKS_API_URL),
      connectionsUrl: '',
      minorVersion: c.QUICKBOOKS_MINOR_VERSION,
      timeoutMs: c.INTEGRATIONS_PROVIDER_TIMEOUT_MS,
    },
  };
}

/** The encryption key from config: base64 of exactly 32 bytes. */
export function parseEncryptionKey(value: string): Buffer {
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) throw new ConfigError('Invalid configuration:\n  - INTEGRATIONS_ENCRYPTION_KEY: must be base64 of 32 bytes');
  return key;
}

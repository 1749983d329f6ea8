// The launcher's secrets, made once in DATA_DIR/keys and kept: the signing keys and each service's
// PostgreSQL role.
import { ensureLoginRole, generateGatewayKeys, generateSigningKeys, serviceRoleName, urlWithRole } from '@countinghouse/kit';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export function secretFile(file: string, make: () => string): string {
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export interface LaunchKeys {
  privateKeyFile: string;
  publicKeyFile: string;
  /** The gateway's request-signing pair: the private half goes to the gateway only, the public one to every service. */
  gatewayPrivateKeyFile: string;
  gatewayPublicKeyFile: string;
}

/** The signing keys, made once in DATA_DIR/keys (same files as `npm start`'s) and kept. */
export function loadKeys(dataDir: string): LaunchKeys {
  const dir = join(dataDir, 'keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const privateKeyFile = join(dir, 'jwt-ed25519.pem');
  const publicKeyFile = join(dir, 'jwt-ed25519.pub.pem');
  if (!existsSync(privateKeyFile) || !existsSync(publicKeyFile)) {
    const k = generateSigningKeys();
    writeFileSync(privateKeyFile, k.privateKeyPem, { mode: 0o600 });
    writeFileSync(publicKeyFile, k.publicKeyPem, { mode: 0o644 });
  }
  const gatewayPrivateKeyFile = join(dir, 'gateway-ed25519.pem');
  const gatewayPublicKeyFile = join(dir, 'gateway-ed25519.pub.pem');
  if (!existsSync(gatewayPrivateKeyFile) || !existsSync(gatewayPublicKeyFile)) {
    const k = generateGatewayKeys();
    writeFileSync(gatewayPrivateKeyFile, k.privateKeyPem, { mode: 0o600 });
    writeFileSync(gatewayPublicKeyFile, k.publicKeyPem, { mode: 0o644 });
  }
  return {
    privateKeyFile,
    publicKeyFile,
    gatewayPrivateKeyFile,
    gatewayPublicKeyFile,
  };
}

/**
 * Each service's own PostgreSQL role (`<database>_<service>`, created or given its password again, as
 * the owner of `ownerUrl`), its password generated once and kept in DATA_DIR/keys. Returns each
 * service's DATABASE_URL; the owner's stays for migrations (DATABASE_MIGRATION_URL, docs/decisions.md).
 */
export async function ensureServiceRoles(ownerUrl: string, services: string[], keysDir: string): Promise<Record<string, string>> {
  const database = decodeURIComponent(new URL(ownerUrl).pathname.replace(/^\//, '')) || 'postgres';
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const urls: Record<string, string> = {};
    for (const service of services) {
      const role = serviceRoleName(database, service);
      const password = secretFile(join(keysDir, `postgres-${service}.secret`), () => randomBytes(24).toString('base64url'));
      await ensureLoginRole(client, role, password);
      urls[service] = urlWithRole(ownerUrl, role, password);
    }
    return urls;
  } finally {
    await client.end();
  }
}

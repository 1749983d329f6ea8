// The launcher's secrets, made once in DATA_DIR/keys and kept: the signing keys and each service's
// PostgreSQL role.
import {
  ensureLoginRole,
  generateGatewayKeys,
  generateSigningKeys,
  keptFile,
  keptKeyPair,
  serviceRoleName,
  urlWithRole,
} from '@countinghouse/kit';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';

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
  const jwt = keptKeyPair(dir, 'jwt-ed25519', generateSigningKeys);
  const gateway = keptKeyPair(dir, 'gateway-ed25519', generateGatewayKeys);
  return {
    privateKeyFile: jwt.privateKeyFile,
    publicKeyFile: jwt.publicKeyFile,
    gatewayPrivateKeyFile: gateway.privateKeyFile,
    gatewayPublicKeyFile: gateway.publicKeyFile,
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
      const password = keptFile(join(keysDir, `postgres-${service}.secret`), () => randomBytes(24).toString('base64url'));
      await ensureLoginRole(client, role, password);
      urls[service] = urlWithRole(ownerUrl, role, password);
    }
    return urls;
  } finally {
    await client.end();
  }
}

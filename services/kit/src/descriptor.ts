import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { App } from './app.js';
import type { TokenSigner } from './auth.js';
import { everyConfigProblem, parseConfig } from './config.js';
import type { PracticeDetails } from './live-settings.js';
import type { Runtime } from './runtime.js';

/**
 * One service, described once (issue 27): what its process needs (settings schema, the rules across
 * them, secrets kept in the data folder) and how it is registered. The all-in-one server and the
 * distributed launcher both loop over proto's SERVICES and read these, so the two run modes take the
 * same settings, refuse the same ones and build each plugin the same way.
 */
export interface ServiceDescriptor<C = Record<string, unknown>, O = object> {
  /** The name in proto's SERVICES: mounted at /api/<name>, its process and its database role are named after it. */
  name: string;
  /** The service's own environment variables (beside the kit's BaseConfigSchema in its own process): a TypeBox object. */
  configSchema: TSchema & { properties: TProperties };
  /** Rules across this service's variables, applied in both run modes before anything starts: throw ConfigError. */
  checkConfig?(config: C): void;
  /** The Fastify plugin (migrations, relay, consumers, routes). */
  plugin(app: App, opts: O): Promise<void>;
  /** The plugin's options, from the parsed settings and what the process hosting it gives (may add onClose hooks to scope). */
  options(config: C, host: ServiceHost, scope: App): O | Promise<O>;
  /** Secrets made once in DATA_DIR/keys and handed to the service as these variables unless they are set (both modes). */
  secrets?: DataSecret[];
  /** A folder of DATA_DIR handed to the service as this variable unless it is set (e.g. uploaded files on disk). */
  dataFolder?: { env: string; folder: string };
  /** Runs REPLICAS processes in the distributed product (the others run one). */
  replicated?: boolean;
  /** Full paths (GET only) its standalone process answers without the gateway's signature. */
  unsignedGets?: string[];
  /** Its standalone process also serves the job status API at /api/jobs. */
  jobsAdmin?: boolean;
  /** Once its standalone process is registered (distributed mode; the all-in-one does its own start-up). */
  standalone?(runtime: Runtime, config: C): Promise<void>;
}

/** A secret kept in DATA_DIR/keys/<file>: `bytes` random bytes, written once in `encoding`. */
export interface DataSecret {
  env: string;
  file: string;
  bytes: number;
  encoding: 'base64' | 'base64url';
}

/** What the process hosting a service gives it besides its settings. */
export interface ServiceHost {
  mode: 'all-in-one' | 'distributed';
  runtime: Runtime;
  /** The practice's details as /admin/settings has them now (e-mails, letters, invoices, scripts). */
  practice: () => PracticeDetails;
  /** NODE_ENV is production. */
  production: boolean;
  /** The all-in-one's token signer (identity signs with it); a standalone identity reads its private key. */
  signer?: TokenSigner;
}

/**
 * Type a descriptor from its schema: its options and plugin are checked where they are written, and the
 * loops over every service see only the shape (the methods' parameters are bivariant, so it is one).
 */
export function defineService<P extends TProperties, O extends object>(
  d: Omit<ServiceDescriptor<Static<TObject<P>>, O>, 'configSchema'> & { configSchema: TObject<P> },
): ServiceDescriptor {
  return d;
}

/** The practice's details until the settings service answers, and the settings service's defaults (one definition, every service). */
export const PracticeConfigProperties = {
  PRACTICE_NAME: Type.String({ minLength: 1, maxLength: 100, default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ minLength: 1, default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ minLength: 3, default: 'hello@countinghouse.co.uk' }),
};

/** A service that follows /admin/settings: the practice's details and the settings service to read them from at start. */
export const FollowsPracticeConfigProperties = {
  ...PracticeConfigProperties,
  /** The settings service, read once at start for the current practice details (empty: events only; the all-in-one has it in-process). */
  SETTINGS_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
};

export const practiceFromConfig = (c: { PRACTICE_NAME: string; PRACTICE_PHONE: string; PRACTICE_EMAIL: string }): PracticeDetails => ({
  name: c.PRACTICE_NAME,
  phone: c.PRACTICE_PHONE,
  email: c.PRACTICE_EMAIL,
});

/** A service's own settings parsed and checked (its schema, then its checkConfig): the one parse both run modes use. */
export function parseServiceConfig(d: ServiceDescriptor, env: Record<string, string | undefined>): Record<string, unknown> {
  const config = parseConfig(Type.Object(d.configSchema.properties), env);
  d.checkConfig?.(config);
  return config;
}

/**
 * Every service's settings at once, each problem reported (the all-in-one's start, and the table test
 * that both modes refuse the same configurations). A variable two services declare must be declared
 * alike: otherwise one mode could take what the other refuses.
 */
export function parseServicesConfig(
  descriptors: readonly ServiceDescriptor[],
  env: Record<string, string | undefined>,
): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  everyConfigProblem(...descriptors.map((d) => () => out.set(d.name, parseServiceConfig(d, env))));
  return out;
}

/** Variables declared by more than one service with different rules (the all-in-one's union must be one schema). */
export function conflictingSettings(descriptors: readonly ServiceDescriptor[]): string[] {
  const seen = new Map<string, { by: string; json: string }>();
  const conflicts: string[] = [];
  for (const d of descriptors)
    for (const [key, schema] of Object.entries(d.configSchema.properties)) {
      const json = JSON.stringify(schema);
      const before = seen.get(key);
      if (!before) seen.set(key, { by: d.name, json });
      else if (before.json !== json) conflicts.push(`${key}: ${before.by} and ${d.name} declare it differently`);
    }
  return conflicts;
}

/**
 * What a run mode hands the services from its data folder: each descriptor's secrets (made once in
 * DATA_DIR/keys; without a data folder, random for this process: tests) and data folders, for every
 * variable the person did not set (neither it nor its _FILE variant).
 */
export function dataFolderEnv(
  descriptors: readonly ServiceDescriptor[],
  env: Record<string, string | undefined>,
  dataDir: string | null,
  tempFolder?: (name: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  const unset = (k: string) => !env[k] && !env[`${k}_FILE`];
  for (const d of descriptors) {
    for (const s of d.secrets ?? []) {
      if (!unset(s.env) || out[s.env]) continue;
      out[s.env] = dataDir ? keptSecret(join(dataDir, 'keys', s.file), s) : randomBytes(s.bytes).toString(s.encoding);
    }
    if (d.dataFolder && unset(d.dataFolder.env)) {
      const folder = dataDir ? join(dataDir, d.dataFolder.folder) : tempFolder?.(d.dataFolder.folder);
      if (folder) out[d.dataFolder.env] = folder;
    }
  }
  return out;
}

function keptSecret(file: string, s: DataSecret): string {
  return keptFile(file, () => randomBytes(s.bytes).toString(s.encoding));
}

/** A secret kept in a file of the data folder: made once (readable by its owner only), then read back. */
export function keptFile(file: string, make: () => string): string {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, make(), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * A key pair kept in `dir` as `<name>.pem` (private, owner only) and `<name>.pub.pem`: made once by
 * `generate` when either is missing (the same files for `npm start` and the distributed launcher).
 */
export function keptKeyPair(
  dir: string,
  name: string,
  generate: () => { privateKeyPem: string; publicKeyPem: string },
): { privateKeyFile: string; publicKeyFile: string } {
  const privateKeyFile = join(dir, `${name}.pem`);
  const publicKeyFile = join(dir, `${name}.pub.pem`);
  if (!existsSync(privateKeyFile) || !existsSync(publicKeyFile)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const k = generate();
    writeFileSync(privateKeyFile, k.privateKeyPem, { mode: 0o600 });
    writeFileSync(publicKeyFile, k.publicKeyPem, { mode: 0o644 });
  }
  return { privateKeyFile, publicKeyFile };
}

import {
  dataFolderEnv,
  jobsAdminPlugin,
  parseServicesConfig,
  type App,
  type Runtime,
  type ServiceHost,
  type TokenSigner,
} from '@countinghouse/kit';
import { PublicSettingsSchema, SETTINGS_ROUTES, type GatewayService } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { buildGateway, type PublicConfig } from './gateway.js';
import { LiveSettings } from './live-settings.js';
import { loadServices } from './services.js';

export interface ComposeOptions {
  runtime: Runtime;
  signer: TokenSigner;
  logger: Logger;
  frontendDir: string | null;
  signInMax?: number;
  /** Share the sign-in limit through this Redis (replicas of the app); without it, counted in memory. */
  redisUrl?: string;
  /** HSTS_MAX_AGE in seconds; 0 or absent: no Strict-Transport-Security header. */
  hstsMaxAge?: number;
  /**
   * Demo mode, and the practice details written to the settings service on first start (PRACTICE_*).
   * What /api/public/config serves afterwards comes from the settings (maintenance included).
   */
  publicConfig: () => PublicConfig;
  /**
   * The services' settings: every descriptor's variables, parsed and checked as a service's own process
   * does (the all-in-one passes its environment with its data folder's secrets). Absent ones take their
   * defaults; secrets and data folders not given are made for this process (tests).
   */
  env?: Record<string, string | undefined>;
  /** NODE_ENV is production (the services then refuse to run without their stored keys). */
  production?: boolean;
  /** Tests: options given to a service's plugin over the ones its descriptor builds (a clock, a mock provider). */
  services?: Partial<Record<GatewayService, Record<string, unknown>>>;
}

/** The gateway with every service plugin registered in-process: the all-in-one app (also used by tests). */
export async function composeAllInOne(o: ComposeOptions): Promise<App> {
  const base = o.publicConfig();
  const descriptors = await loadServices();
  const env = {
    ...dataFolderEnv(descriptors, o.env ?? {}, null, (name) => mkdtempSync(join(tmpdir(), `countinghouse-${name}-`))),
    PRACTICE_NAME: base.practice.name,
    PRACTICE_PHONE: base.practice.phone,
    PRACTICE_EMAIL: base.practice.email,
    ...o.env,
  };
  // every service's settings with the rules its own process applies (a ConfigError names each problem)
  const configs = parseServicesConfig(descriptors, env);
  const overrides: Partial<Record<string, Record<string, unknown>>> = o.services ?? {};
  const live = new LiveSettings(base.practice);
  await live.subscribe(o.runtime.bus, o.logger);
  const host: ServiceHost = {
    mode: 'all-in-one',
    runtime: o.runtime,
    practice: () => live.practice(),
    production: o.production ?? false,
    signer: o.signer,
  };
  const app = await buildGateway({
    logger: o.logger,
    verifier: o.runtime.verifier,
    frontendDir: o.frontendDir,
    healthChecks: o.runtime.healthChecks(),
    signInMax: o.signInMax,
    redisUrl: o.redisUrl,
    hstsMaxAge: o.hstsMaxAge,
    publicConfig: () => live.publicConfig(base.demoMode),
    plugins: [
      ...descriptors.map((d) => ({
        name: d.name,
        register: async (scope: App) => {
          const options = await d.options(configs.get(d.name) ?? {}, host, scope);
          await scope.register(d.plugin, { ...options, ...overrides[d.name] });
        },
      })),
      // The job status page: every queue and schedule lives in this one PostgreSQL.
      { name: 'jobs', register: async (scope: App) => void (await scope.register(jobsAdminPlugin, { runtime: o.runtime })) },
    ],
  });
  await app.ready();
  // the practice details the settings service holds (a later change arrives as settings.changed)
  const current: unknown = (await app.inject({ method: 'GET', url: SETTINGS_ROUTES.public })).json();
  if (Value.Check(PublicSettingsSchema, current)) live.apply(current);
  return app;
}

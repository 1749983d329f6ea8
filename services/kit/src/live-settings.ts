import type { EventBus } from './bus.js';
import {
  PublicSettingsSchema,
  SettingsChangedSchema,
  SETTINGS_ROUTES,
  TOPICS,
  type EventEnvelope,
  type PublicConfig,
  type PublicSettings,
} from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';

export interface PracticeDetails {
  name: string;
  phone: string;
  email: string;
}

/**
 * The practice settings one process holds in memory (the gateway's /api/public/config; identity's
 * e-mails and media's scripts in distributed mode): loaded at start from the settings service and
 * replaced by every `settings.changed` event. Each state carries
 * the settings row's version, so a late or replayed event never puts an older state back.
 */
export class LiveSettings {
  private state: PublicSettings;
  private loaded = false;

  /** Until the settings service answers, the launcher's PRACTICE_* values and no maintenance (version 0). */
  constructor(defaults: PracticeDetails) {
    this.state = { ...defaults, maintenance: false, version: 0 };
  }

  get(): PublicSettings {
    return this.state;
  }

  /** The practice details held now (for e-mails and scripts). */
  practice(): PracticeDetails {
    const { name, phone, email } = this.state;
    return { name, phone, email };
  }

  /** What /api/public/config answers. */
  publicConfig(demoMode: boolean): PublicConfig {
    return { demoMode, maintenance: this.state.maintenance, practice: this.practice() };
  }

  /** True once the service's settings (or an event) arrived. */
  isLoaded(): boolean {
    return this.loaded;
  }

  /** Take a state if it is newer than the one held; returns whether it was taken. */
  apply(next: PublicSettings): boolean {
    if (next.version <= this.state.version) {
      this.loaded = true;
      return false;
    }
    this.state = { name: next.name, phone: next.phone, email: next.email, maintenance: next.maintenance, version: next.version };
    this.loaded = true;
    return true;
  }

  /**
   * A broadcast subscription: every instance sees every change (a consumer group of its own, named
   * `<group>.<instance>`), and a restarted instance replays the recent past as well as loading the current state.
   */
  async subscribe(bus: EventBus, logger: Logger, group = 'gateway.settings'): Promise<void> {
    await bus.subscribe({
      group,
      topics: [TOPICS.settings],
      broadcast: { sinceMs: 10 * 60 * 1000 },
      handler: async (e: EventEnvelope) => {
        if (e.type !== 'settings.changed') return;
        if (!Value.Check(SettingsChangedSchema, e.data)) {
          logger.warn({ eventId: e.id }, 'settings.changed with an unexpected shape skipped');
          return;
        }
        if (this.apply(e.data)) logger.info({ version: e.data.version, changed: e.data.changedFields }, 'practice settings updated');
      },
    });
  }

  /**
   * Distributed mode: GET the settings service's public endpoint, retrying (every 2 s, then up to 10 s)
   * until it answers. Resolves when loaded, or when `signal` aborts.
   */
  async loadFrom(baseUrl: string, logger: Logger, signal?: AbortSignal): Promise<void> {
    const url = `${baseUrl.replace(/\/+$/, '')}${SETTINGS_ROUTES.public}`;
    for (let attempt = 1; !signal?.aborted; attempt++) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
        if (res.ok) {
          const body: unknown = await res.json();
          if (Value.Check(PublicSettingsSchema, body)) {
            this.apply(body);
            logger.info({ version: body.version, maintenance: body.maintenance }, 'practice settings loaded');
            return;
          }
          logger.warn({ url }, 'the settings service answered an unexpected shape');
        }
      } catch {
        // the settings service may still be starting
      }
      if (attempt === 5) logger.warn({ url }, 'settings service not answering yet; serving the PRACTICE_* defaults meanwhile');
      await new Promise((r) => setTimeout(r, Math.min(10_000, 2000 * Math.ceil(attempt / 5))).unref());
    }
  }
}

/**
 * Distributed mode: a service process that shows the practice details (identity's e-mails, media's
 * scripts) follows them like the gateway: PRACTICE_* until the settings service answers at
 * `settingsUrl` (when given), then every `settings.changed` event. The loading stops on close.
 */
export async function followPracticeSettings(o: {
  service: string;
  bus: EventBus;
  logger: Logger;
  defaults: PracticeDetails;
  settingsUrl: string;
}): Promise<{ live: LiveSettings; stop: () => void }> {
  const live = new LiveSettings(o.defaults);
  await live.subscribe(o.bus, o.logger, `${o.service}.settings`);
  const stopLoading = new AbortController();
  if (o.settingsUrl) void live.loadFrom(o.settingsUrl, o.logger, stopLoading.signal);
  return { live, stop: () => stopLoading.abort() };
}

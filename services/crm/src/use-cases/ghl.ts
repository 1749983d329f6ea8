import { AppError, type Db } from '@countinghouse/kit';
import { GHL_MESSAGES, MESSAGES, type GhlConfig, type GhlContact, type GhlImportResult } from '@countinghouse/proto';
import type { FastifyBaseLogger } from 'fastify';
import { leadsMatching, lockGhlImport, readGhlSync, recordGhlError, recordGhlImport } from '../db/ghl.js';
import { insertLead, updateLead } from '../db/leads.js';
import { toLead, type LeadRow } from '../db/queries.js';
import { contactToLead } from '../domain/ghl.js';
import { GhlClient, GhlError } from '../adapters/ghl-client.js';
import type { CrmDeps } from './deps.js';

export interface GhlOptions {
  apiKey?: string;
  locationId?: string;
  baseUrl?: string;
  /** Tests shorten the waits between retries. */
  sleep?: (ms: number) => Promise<void>;
}

export interface GhlDeps extends CrmDeps {
  ghl: GhlOptions;
}

export function isGhlConfigured(o: GhlOptions): o is GhlOptions & { apiKey: string; locationId: string } {
  return Boolean(o.apiKey && o.locationId);
}

/**
 * Import contacts as leads with source GoHighLevel. The same contact found again (by its external id,
 * else by e-mail) updates its lead instead of adding another. One import at a time (advisory lock).
 */
export async function importContacts(db: Db, contacts: GhlContact[]): Promise<{ leads: LeadRow[]; created: number; updated: number }> {
  return db.transaction(async (tx) => {
    await lockGhlImport(tx);
    const mapped = contacts.map(contactToLead);
    const ids = mapped.map((m) => m.externalId);
    const emails = mapped.map((m) => m.email).filter((e): e is string => Boolean(e));
    const existing = await leadsMatching(tx, ids, emails);
    const byExternal = new Map<string, LeadRow>();
    const byEmail = new Map<string, LeadRow>();
    const remember = (r: LeadRow) => {
      if (r.externalId) byExternal.set(r.externalId, r);
      if (r.email) byEmail.set(r.email.toLowerCase(), r);
    };
    existing.forEach(remember);
    const out = new Map<string, LeadRow>();
    let created = 0;
    let updated = 0;
    for (const m of mapped) {
      const found = byExternal.get(m.externalId) ?? (m.email ? byEmail.get(m.email) : undefined);
      if (found) {
        const row = await updateLead(tx, found.id, {
          name: m.name,
          email: m.email ?? found.email,
          phone: m.phone ?? found.phone,
          companyName: m.companyName ?? found.companyName,
          tags: [...new Set([...found.tags, ...m.tags])],
          externalId: found.externalId ?? m.externalId,
          source: found.source ?? m.source,
          updatedAt: new Date(),
        });
        remember(row);
        if (!out.has(row.id)) updated++;
        out.set(row.id, row);
      } else {
        const row = await insertLead(tx, {
          name: m.name,
          email: m.email,
          phone: m.phone,
          companyName: m.companyName,
          tags: m.tags,
          source: m.source,
          externalId: m.externalId,
          stage: 'new_enquiry',
          createdAt: m.createdAt ?? undefined,
        });
        remember(row);
        created++;
        out.set(row.id, row);
      }
    }
    await recordGhlImport(tx, contacts.length);
    return { leads: [...out.values()], created, updated };
  });
}

/** Is the GoHighLevel import configured, and how did the last one go? */
export async function getGhlConfig(deps: GhlDeps): Promise<GhlConfig> {
  const s = await readGhlSync(deps.db);
  const configured = isGhlConfigured(deps.ghl);
  return {
    configured,
    message: configured ? null : GHL_MESSAGES.notConfigured,
    last_import_at: s?.lastImportAt?.toISOString() ?? null,
    last_import_total: s?.lastImportTotal ?? null,
  };
}

/** Fetch every GoHighLevel contact and import them as leads; a failure is recorded and told as the provider being unavailable. */
export async function importFromGhl(deps: GhlDeps, log: FastifyBaseLogger): Promise<GhlImportResult> {
  const ghl = deps.ghl;
  if (!isGhlConfigured(ghl)) throw new AppError('NOT_CONFIGURED', GHL_MESSAGES.notConfigured);
  const client = new GhlClient({ apiKey: ghl.apiKey, locationId: ghl.locationId, baseUrl: ghl.baseUrl, sleep: ghl.sleep });
  let contacts: GhlContact[];
  try {
    contacts = await client.fetchAllContacts();
  } catch (err) {
    if (!(err instanceof GhlError)) throw err;
    log.warn({ err }, 'GoHighLevel import failed');
    const reason = err.kind === 'unauthorised' ? GHL_MESSAGES.unauthorised : err.message;
    await recordGhlError(deps.db, reason).catch(() => {});
    throw new AppError('UPSTREAM_UNAVAILABLE', MESSAGES.failedToFetchLeadsFromGhl, [{ path: 'gohighlevel', message: reason }]);
  }
  const r = await importContacts(deps.db, contacts);
  return { success: true, leads: r.leads.map(toLead), total: contacts.length, created: r.created, updated: r.updated };
}

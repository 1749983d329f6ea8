import { AppError, requireRole, type App, type Db } from '@countinghouse/kit';
import { GHL_MESSAGES, GhlConfigSchema, GhlImportResultSchema, MESSAGES, rolesFor, type GhlContact } from '@countinghouse/proto';
import { eq, inArray, or, sql } from 'drizzle-orm';
import { contactToLead } from '../domain/ghl.js';
import { ghlSync, leads } from '../db/schema.js';
import { toLead, type LeadRow } from '../db/queries.js';
import { GhlClient, GhlError } from '../ghl-client.js';
import { errors, type RouteDeps } from './shared.js';

export interface GhlOptions {
  apiKey?: string;
  locationId?: string;
  baseUrl?: string;
  /** Tests shorten the waits between retries. */
  sleep?: (ms: number) => Promise<void>;
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
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('crm-ghl-import'))`);
    const mapped = contacts.map(contactToLead);
    const ids = mapped.map((m) => m.externalId);
    const emails = mapped.map((m) => m.email).filter((e): e is string => Boolean(e));
    const existing = await tx
      .select()
      .from(leads)
      .where(
        emails.length
          ? or(inArray(leads.externalId, ids.length ? ids : ['']), inArray(sql`lower(${leads.email})`, emails))
          : inArray(leads.externalId, ids.length ? ids : ['']),
      );
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
        const [row] = await tx
          .update(leads)
          .set({
            name: m.name,
            email: m.email ?? found.email,
            phone: m.phone ?? found.phone,
            companyName: m.companyName ?? found.companyName,
            tags: [...new Set([...found.tags, ...m.tags])],
            externalId: found.externalId ?? m.externalId,
            source: found.source ?? m.source,
            updatedAt: new Date(),
          })
          .where(eq(leads.id, found.id))
          .returning();
        remember(row!);
        if (!out.has(row!.id)) updated++;
        out.set(row!.id, row!);
      } else {
        const [row] = await tx
          .insert(leads)
          .values({
            name: m.name,
            email: m.email,
            phone: m.phone,
            companyName: m.companyName,
            tags: m.tags,
            source: m.source,
            externalId: m.externalId,
            stage: 'new_enquiry',
            createdAt: m.createdAt ?? undefined,
          })
          .returning();
        remember(row!);
        created++;
        out.set(row!.id, row!);
      }
    }
    await tx
      .insert(ghlSync)
      .values({ id: 1, lastImportAt: new Date(), lastImportTotal: contacts.length, lastError: null })
      .onConflictDoUpdate({ target: ghlSync.id, set: { lastImportAt: new Date(), lastImportTotal: contacts.length, lastError: null } });
    return { leads: [...out.values()], created, updated };
  });
}

export function ghlRoutes(app: App, { db }: RouteDeps, ghl: GhlOptions) {
  const guard = requireRole(rolesFor('leads.import'));

  app.get(
    '/ghl/config',
    {
      preHandler: guard,
      schema: { tags: ['crm'], summary: 'Is the GoHighLevel import configured?', response: { 200: GhlConfigSchema, ...errors } },
    },
    async () => {
      const [s] = await db.select().from(ghlSync).where(eq(ghlSync.id, 1));
      const configured = isGhlConfigured(ghl);
      return {
        configured,
        message: configured ? null : GHL_MESSAGES.notConfigured,
        last_import_at: s?.lastImportAt?.toISOString() ?? null,
        last_import_total: s?.lastImportTotal ?? null,
      };
    },
  );

  app.post(
    '/ghl/import',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Fetch every GoHighLevel contact and import them as leads (no duplicates on re-import)',
        response: { 200: GhlImportResultSchema, ...errors, 503: errors[400] },
      },
    },
    async (request) => {
      if (!isGhlConfigured(ghl)) throw new AppError('NOT_CONFIGURED', GHL_MESSAGES.notConfigured);
      const client = new GhlClient({ apiKey: ghl.apiKey, locationId: ghl.locationId, baseUrl: ghl.baseUrl, sleep: ghl.sleep });
      let contacts: GhlContact[];
      try {
        contacts = await client.fetchAllContacts();
      } catch (err) {
        if (!(err instanceof GhlError)) throw err;
        request.log.warn({ err }, 'GoHighLevel import failed');
        const reason = err.kind === 'unauthorised' ? GHL_MESSAGES.unauthorised : err.message;
        await db
          .insert(ghlSync)
          .values({ id: 1, lastError: reason })
          .onConflictDoUpdate({ target: ghlSync.id, set: { lastError: reason } })
          .catch(() => {});
        throw new AppError('UPSTREAM_UNAVAILABLE', MESSAGES.failedToFetchLeadsFromGhl, [{ path: 'gohighlevel', message: reason }]);
      }
      const r = await importContacts(db, contacts);
      return { success: true, leads: r.leads.map(toLead), total: contacts.length, created: r.created, updated: r.updated };
    },
  );
}

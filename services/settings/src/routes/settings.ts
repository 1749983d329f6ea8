import { AppError, enqueueEvent, requireAuth, requireRole, type App, type Db, type OutboxRelay } from '@countinghouse/kit';
import {
  normaliseSettingsPatch,
  PracticeSettingsSchema,
  PublicSettingsSchema,
  rolesFor,
  SETTINGS_MESSAGES,
  SettingChangeListSchema,
  SettingChangesQuerySchema,
  SettingsPatchReplySchema,
  SettingsPatchSchema,
  validateSettingsPatch,
  type SettingChangesQuery,
  type SettingsPatch,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import { listChanges, readSettingsRow, toPublic, toSettings, valueText, type SettingsRow } from '../db/queries.js';
import { practiceSettings, SCHEMA, settingChanges } from '../db/schema.js';
import { changedFields } from '../domain/diff.js';

const ErrorRef = Type.Ref('ErrorBody');

export interface SettingsRoutesDeps {
  db: Db;
  relay: OutboxRelay;
}

// Company settings are the practice's own: admin panel accounts and people holding an active admin grant.
const adminOnly = requireRole(rolesFor('settings'));

async function current(db: Db): Promise<SettingsRow> {
  const row = await readSettingsRow(db);
  // The plugin writes the row at start; its absence means the database was changed under us.
  if (!row) throw new Error('settings: the practice_settings row is missing');
  return row;
}

function replyMessage(changed: string[], row: SettingsRow): string {
  if (changed.length === 0) return SETTINGS_MESSAGES.unchanged;
  if (changed.includes('maintenance')) return row.maintenance ? SETTINGS_MESSAGES.maintenanceOn : SETTINGS_MESSAGES.maintenanceOff;
  return SETTINGS_MESSAGES.saved;
}

export function settingsRoutes(app: App, deps: SettingsRoutesDeps) {
  const { db, relay } = deps;

  app.get(
    '/public',
    {
      schema: {
        tags: ['settings'],
        summary: 'The public settings (no token): practice name, phone, e-mail, maintenance; gateways load them at start',
        security: [],
        response: { 200: PublicSettingsSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return toPublic(await current(db));
    },
  );

  app.get(
    '/',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['settings'],
        summary: 'Company settings with who changed them last (admin)',
        response: { 200: PracticeSettingsSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async () => toSettings(await current(db)),
  );

  app.patch(
    '/',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['settings'],
        summary: 'Change any of name, phone, e-mail, maintenance (admin); each changed field is recorded and announced',
        body: SettingsPatchSchema,
        response: { 200: SettingsPatchReplySchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => {
      const principal = requireAuth(request);
      const patch = normaliseSettingsPatch(request.body as SettingsPatch);
      if (Object.keys(patch).length === 0) throw new AppError('VALIDATION_FAILED', SETTINGS_MESSAGES.nothingToChange);
      const problems = validateSettingsPatch(patch);
      if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems[0]!.message, problems);

      const actor = { kind: principal.kind, id: principal.id, name: principal.name || principal.id };
      const result = await db.transaction(async (tx) => {
        const before = await readSettingsRow(tx as unknown as Db, { forUpdate: true });
        if (!before) throw new Error('settings: the practice_settings row is missing');
        const changed = changedFields(
          { name: before.practiceName, phone: before.contactPhone, email: before.contactEmail, maintenance: before.maintenance },
          patch,
        );
        if (changed.length === 0) return { row: before, changed };
        const [after] = await tx
          .update(practiceSettings)
          .set({
            practiceName: patch.name ?? before.practiceName,
            contactPhone: patch.phone ?? before.contactPhone,
            contactEmail: patch.email ?? before.contactEmail,
            maintenance: patch.maintenance ?? before.maintenance,
            version: sql`${practiceSettings.version} + 1`,
            updatedAt: sql`now()`,
            updatedBy: actor.id,
            updatedByName: actor.name,
          })
          .where(eq(practiceSettings.id, 1))
          .returning();
        await tx.insert(settingChanges).values(
          changed.map((field) => ({
            field,
            oldValue: valueText(field, before),
            newValue: valueText(field, after!),
            actorKind: actor.kind,
            actorId: actor.id,
            actorName: actor.name,
          })),
        );
        await enqueueEvent(
          tx,
          SCHEMA,
          'settings.changed',
          { ...toPublic(after!), changedFields: changed },
          { actor: { kind: actor.kind, id: actor.id }, key: 'practice' },
        );
        return { row: after!, changed };
      });
      if (result.changed.length > 0) {
        relay.kick();
        request.log.info({ changed: result.changed, by: actor.id }, 'practice settings changed');
      }
      return { settings: toSettings(result.row), changed: result.changed, message: replyMessage(result.changed, result.row) };
    },
  );

  app.get(
    '/changes',
    {
      preHandler: adminOnly,
      schema: {
        tags: ['settings'],
        summary: 'Change history of the settings, newest first, one page (admin)',
        querystring: SettingChangesQuerySchema,
        response: { 200: SettingChangeListSchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => {
      const q = request.query as SettingChangesQuery;
      const { changes, total } = await listChanges(db, q.page, q.page_size);
      return { changes, total, page: q.page, page_size: q.page_size };
    },
  );
}

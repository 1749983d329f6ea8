import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  PracticeSettingsSchema,
  PublicSettingsSchema,
  rolesFor,
  SETTINGS_MESSAGES,
  SettingChangeListSchema,
  SettingChangesQuerySchema,
  SettingsPatchReplySchema,
  SettingsPatchSchema,
  type SettingField,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { toSettings, type SettingsRow } from '../db/queries.js';
import { changeSettings, type SettingsDeps } from '../use-cases/change-settings.js';
import { findSettingChanges, getPublicSettings, getSettings } from '../use-cases/read-settings.js';

const ErrorRef = Type.Ref('ErrorBody');

// Company settings are the practice's own: admin panel accounts and people holding an active admin grant.
const adminOnly = requireRole(rolesFor('settings'));

function replyMessage(changed: SettingField[], row: SettingsRow): string {
  if (changed.length === 0) return SETTINGS_MESSAGES.unchanged;
  if (changed.includes('maintenance')) return row.maintenance ? SETTINGS_MESSAGES.maintenanceOn : SETTINGS_MESSAGES.maintenanceOff;
  return SETTINGS_MESSAGES.saved;
}

export function settingsRoutes(app: App, deps: SettingsDeps) {
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
      return getPublicSettings(deps);
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
    async () => getSettings(deps),
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
      const { row, changed } = await changeSettings(deps, principal, request.body);
      if (changed.length > 0) request.log.info({ changed, by: principal.id }, 'practice settings changed');
      return { settings: toSettings(row), changed, message: replyMessage(changed, row) };
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
    async (request) => findSettingChanges(deps, request.query),
  );
}

import { Type } from '@sinclair/typebox';
import { PublicSettingsSchema } from './settings.js';

/** The whole public settings after a change: any one event alone is enough for a gateway to apply. */
export const SettingsChangedSchema = Type.Composite([PublicSettingsSchema, Type.Object({ changedFields: Type.Array(Type.String()) })]);

export const SETTINGS_EVENTS = {
  'settings.changed': SettingsChangedSchema,
} as const;

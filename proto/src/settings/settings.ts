import { Type, type Static } from '@sinclair/typebox';
import { PageNumber } from '../text.js';
import { CONTACT_MESSAGES, emailProblem as contactEmailProblem, phoneProblem as contactPhoneProblem } from '../rules/contact.js';
import { EMAIL_MAX, PHONE_TYPED_MAX, PHONE_TYPED_MIN } from '../rules/limits.js';

// Contracts of the settings service (routes under /api/settings). Browser-safe.

export const SETTINGS_ROUTES = {
  /** GET (admin): the settings with who changed them last; PATCH (admin): change some of them. */
  settings: '/api/settings',
  /** GET (admin): the change history, newest first. */
  changes: '/api/settings/changes',
  /** GET, no token: what gateways and the public site need (name, phone, e-mail, maintenance). */
  public: '/api/settings/public',
} as const;

export const SETTING_FIELDS = ['name', 'phone', 'email', 'maintenance'] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

/** How each field is named to people (history table, messages). */
export const SETTING_FIELD_LABELS: Record<SettingField, string> = {
  name: 'Practice name',
  phone: 'Contact phone',
  email: 'Contact e-mail',
  maintenance: 'Maintenance mode',
};

export const SETTINGS_LIMITS = { nameMax: 100, phoneMin: PHONE_TYPED_MIN, phoneMax: PHONE_TYPED_MAX, emailMax: EMAIL_MAX } as const;

/** Our texts (not in the spec's catalogue): validation problems and the save replies. */
export const SETTINGS_MESSAGES = {
  nameRequired: 'Enter the practice name',
  nameTooLong: `The practice name must be at most ${SETTINGS_LIMITS.nameMax} characters`,
  phoneInvalid: CONTACT_MESSAGES.phoneInvalid,
  phoneDigits: CONTACT_MESSAGES.phoneTooFewDigits,
  emailInvalid: CONTACT_MESSAGES.emailInvalid,
  nothingToChange: 'Send at least one of name, phone, email or maintenance',
  saved: 'Settings saved',
  unchanged: 'Nothing changed',
  maintenanceOn: 'Maintenance mode is on: public and client pages show the maintenance page',
  maintenanceOff: 'Maintenance mode is off: the website is open again',
  failedToLoad: 'Failed to load settings',
  failedToSave: 'Failed to save settings',
} as const;

/** The public part: what the gateway's /api/public/config and the footer show. */
export const PublicSettingsSchema = Type.Object({
  name: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  maintenance: Type.Boolean(),
  /** Increases by one on every change: a gateway never replaces newer settings with an older event. */
  version: Type.Integer({ minimum: 1 }),
});
export type PublicSettings = Static<typeof PublicSettingsSchema>;

export const PracticeSettingsSchema = Type.Composite([
  PublicSettingsSchema,
  Type.Object({
    updated_at: Type.String({ format: 'date-time' }),
    /** Name of who changed them last; null for the defaults set at first start. */
    updated_by: Type.Union([Type.String(), Type.Null()]),
  }),
]);
export type PracticeSettings = Static<typeof PracticeSettingsSchema>;

/** PATCH body: any of the four; types only here, the rules (with clear messages) in validateSettingsPatch. */
export const SettingsPatchSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    phone: Type.Optional(Type.String({ maxLength: 1000 })),
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    maintenance: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SettingsPatch = Static<typeof SettingsPatchSchema>;

export const SettingsPatchReplySchema = Type.Object({
  settings: PracticeSettingsSchema,
  /** The fields that changed (empty when the request changed nothing). */
  changed: Type.Array(Type.String()),
  message: Type.String(),
});
export type SettingsPatchReply = Static<typeof SettingsPatchReplySchema>;

export const SettingChangeSchema = Type.Object({
  id: Type.Integer(),
  field: Type.String(),
  old_value: Type.Union([Type.String(), Type.Null()]),
  new_value: Type.String(),
  actor_id: Type.String(),
  actor_name: Type.String(),
  changed_at: Type.String({ format: 'date-time' }),
});
export type SettingChange = Static<typeof SettingChangeSchema>;

export const SettingChangesQuerySchema = Type.Object({
  page: PageNumber(),
  page_size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type SettingChangesQuery = Static<typeof SettingChangesQuerySchema>;

export const SettingChangeListSchema = Type.Object({
  changes: Type.Array(SettingChangeSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});
export type SettingChangeList = Static<typeof SettingChangeListSchema>;

export interface SettingsProblem {
  path: SettingField;
  message: string;
}

/** Trim the text fields (what is stored and compared). */
export function normaliseSettingsPatch(patch: SettingsPatch): SettingsPatch {
  const out: SettingsPatch = {};
  if (patch.name !== undefined) out.name = patch.name.trim().replace(/\s+/g, ' ');
  if (patch.phone !== undefined) out.phone = patch.phone.trim().replace(/\s+/g, ' ');
  if (patch.email !== undefined) out.email = patch.email.trim();
  if (patch.maintenance !== undefined) out.maintenance = patch.maintenance;
  return out;
}

/** The practice's public phone: the one phone rule (proto/src/rules/contact.ts). */
export const settingsPhoneProblem = contactPhoneProblem;
/** The practice's public e-mail: the one e-mail rule (proto/src/rules/contact.ts). */
export const settingsEmailProblem = contactEmailProblem;

export function settingsNameProblem(name: string): string | null {
  const n = name.trim();
  if (n.length === 0) return SETTINGS_MESSAGES.nameRequired;
  if (n.length > SETTINGS_LIMITS.nameMax) return SETTINGS_MESSAGES.nameTooLong;
  return null;
}

/** Every problem of a (normalised) patch, one per field; the same rules on the server and in the form. */
export function validateSettingsPatch(patch: SettingsPatch): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const check = (path: SettingField, problem: string | null) => problem && problems.push({ path, message: problem });
  if (patch.name !== undefined) check('name', settingsNameProblem(patch.name));
  if (patch.phone !== undefined) check('phone', settingsPhoneProblem(patch.phone));
  if (patch.email !== undefined) check('email', settingsEmailProblem(patch.email));
  return problems;
}

export { isOpenDuringMaintenance, MAINTENANCE_OPEN_PATHS } from './maintenance.js';

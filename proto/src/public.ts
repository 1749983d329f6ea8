import { Type, type Static } from '@sinclair/typebox';

/** GET /api/public/config: what the public site needs before anyone signs in. */
export const PublicConfigSchema = Type.Object({
  demoMode: Type.Boolean(),
  maintenance: Type.Boolean(),
  practice: Type.Object({ name: Type.String(), phone: Type.String(), email: Type.String() }),
});
export type PublicConfig = Static<typeof PublicConfigSchema>;

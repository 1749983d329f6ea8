import { Type } from '@sinclair/typebox';

/** The crm service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const CrmConfigSchema = Type.Object({
  /** GoHighLevel (LeadConnector) lead import: key and location both or neither. */
  GHL_API_KEY: Type.String({ default: '' }),
  GHL_LOCATION_ID: Type.String({ default: '' }),
  GHL_BASE_URL: Type.String({ default: '' }),
});

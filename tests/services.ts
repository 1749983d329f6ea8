import { migrationsFolder as billingMigrations, SCHEMA as BILLING } from '@countinghouse/billing';
import { migrationsFolder as crmMigrations, SCHEMA as CRM } from '@countinghouse/crm';
import { migrationsFolder as documentsMigrations, SCHEMA as DOCUMENTS } from '@countinghouse/documents';
import { migrationsFolder as identityMigrations, SCHEMA as IDENTITY } from '@countinghouse/identity';
import { migrationsFolder as integrationsMigrations, SCHEMA as INTEGRATIONS } from '@countinghouse/integrations';
import { migrationsFolder as mediaMigrations, SCHEMA as MEDIA } from '@countinghouse/media';
import { migrationsFolder as notificationsMigrations, SCHEMA as NOTIFICATIONS } from '@countinghouse/notifications';
import { migrationsFolder as settingsMigrations, SCHEMA as SETTINGS } from '@countinghouse/settings';
import { migrationsFolder as deadlinesMigrations, SCHEMA as DEADLINES } from '@countinghouse/deadlines';
import { migrationsFolder as amlMigrations, SCHEMA as AML } from '@countinghouse/aml';
import { migrationsFolder as engagementMigrations, SCHEMA as ENGAGEMENT } from '@countinghouse/engagement';
import { migrationsFolder as requestsMigrations, SCHEMA as REQUESTS } from '@countinghouse/requests';
import { migrationsFolder as recordsMigrations, SCHEMA as RECORDS } from '@countinghouse/records';

/** Every service's migrations, applied to the test template database in this order. */
export const SERVICE_MIGRATIONS = [
  { schema: IDENTITY, migrationsFolder: identityMigrations },
  { schema: CRM, migrationsFolder: crmMigrations },
  { schema: DOCUMENTS, migrationsFolder: documentsMigrations },
  { schema: BILLING, migrationsFolder: billingMigrations },
  { schema: INTEGRATIONS, migrationsFolder: integrationsMigrations },
  { schema: MEDIA, migrationsFolder: mediaMigrations },
  { schema: NOTIFICATIONS, migrationsFolder: notificationsMigrations },
  { schema: SETTINGS, migrationsFolder: settingsMigrations },
  { schema: DEADLINES, migrationsFolder: deadlinesMigrations },
  { schema: AML, migrationsFolder: amlMigrations },
  { schema: ENGAGEMENT, migrationsFolder: engagementMigrations },
  { schema: REQUESTS, migrationsFolder: requestsMigrations },
  { schema: RECORDS, migrationsFolder: recordsMigrations },
];

import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/jobs/tables.ts',
  out: './drizzle',
  schemaFilter: ['jobs'],
});

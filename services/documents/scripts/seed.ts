// Seed many synthetic documents (for the bench and for trying search at size):
//   DATABASE_URL=postgres://... node --import tsx services/documents/scripts/seed.ts [count] [clients]
// Rows only: their file_path points nowhere, so View/Download of these answer 'no longer available'.
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const COMPANIES = [
  'Acme Bakery',
  'Brook Plumbing',
  'Castle Joinery',
  'Dale Dental',
  'Elm Cafe',
  'Fox Haulage',
  'Glen Florists',
  'Harbour Fish',
  'Ivy Nursery',
  'Jet Couriers',
  'Kent Roofing',
  'Lark Studio',
  'Moor Garage',
  'Nook Books',
  'Oak Tailors',
];
const WORDS = [
  'invoice',
  'receipt',
  'statement',
  'payslip',
  'ledger',
  'return',
  'summary',
  'report',
  'bank',
  'mileage',
  'expenses',
  'payroll',
  'vat',
  'cis',
  'assessment',
  'accounts',
  'budget',
  'forecast',
  'contract',
  'letter',
];
const EXTS = ['pdf', 'pdf', 'pdf', 'jpg', 'png', 'xlsx', 'csv', 'xls', 'gif'];
const TYPES = ['vat', 'paye', 'cis', 'self_assessment', 'corporation_tax', 'bookkeeping', 'payroll', 'advisory', 'general'];

/**
 * Insert `clients` directory entries and `count` documents with set-based SQL (generate_series), one
 * statement each: 200,000 rows take seconds. Returns the client ids.
 */
export async function seedDocuments(pool: pg.Pool, count: number, clients = Math.max(1, Math.round(count / 100))): Promise<string[]> {
  const c = await pool.connect();
  try {
    await c.query('begin');
    const dir = await c.query<{ client_id: string }>(
      `insert into documents.client_directory (client_id, user_id, company_name, contact_email, assigned_accountant_id, source_at)
       select gen_random_uuid()::text, null,
              ($2::text[])[1 + (i % array_length($2::text[], 1))] || ' ' || i || ' Ltd',
              'owner' || i || '@' || lower(replace(($2::text[])[1 + (i % array_length($2::text[], 1))], ' ', '-')) || '.co.uk',
              null, now()
       from generate_series(1, $1) as i
       returning client_id`,
      [clients, COMPANIES],
    );
    const ids = dir.rows.map((r) => r.client_id);
    await c.query(
      `with d as (select client_id, company_name, contact_email, row_number() over () as n from documents.client_directory where client_id = any($1)),
            g as (
              select i,
                     ($3::text[])[1 + (i * 7 % array_length($3::text[], 1))] || '-' || ($3::text[])[1 + (i * 13 % array_length($3::text[], 1))]
                       || '-' || (2020 + i % 7) || '-' || lpad((i % 12 + 1)::text, 2, '0') as base,
                     ($4::text[])[1 + (i % array_length($4::text[], 1))] as ext,
                     ($5::text[])[1 + (i * 3 % array_length($5::text[], 1))] as typ,
                     1 + (i % $6) as n
              from generate_series(1, $2) as i)
       insert into documents.client_documents
         (client_id, filename, document_type, file_path, file_size, content_type, description, uploaded_by, status, created_at, search_text)
       select d.client_id, g.base || '.' || g.ext, g.typ, d.client_id || '/' || g.typ || '/seed-' || g.i || '.' || g.ext,
              1000 + (g.i * 7919 % 5000000), 'application/pdf',
              case when g.i % 3 = 0 then 'Quarter ' || (g.i % 4 + 1) || ' ' || ($3::text[])[1 + (g.i % array_length($3::text[], 1))] else null end,
              '00000000-0000-4000-8000-000000000000',
              case when g.i % 10 = 0 then 'pending' when g.i % 10 = 1 then 'completed' else 'active' end,
              now() - (g.i || ' minutes')::interval,
              lower(g.base || '.' || g.ext || E'\\n' ||
                    coalesce(case when g.i % 3 = 0 then 'Quarter ' || (g.i % 4 + 1) || ' ' || ($3::text[])[1 + (g.i % array_length($3::text[], 1))] end, '')
                    || E'\\n' || d.company_name || E'\\n' || d.contact_email)
       from g join d on d.n = g.n`,
      [ids, count, WORDS, EXTS, TYPES, ids.length],
    );
    await c.query('commit');
    await c.query('analyze documents.client_documents');
    await c.query('analyze documents.client_directory');
    return ids;
  } catch (err) {
    await c.query('rollback').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required (a database the documents migrations ran on)');
  const count = Number(process.argv[2] ?? 200_000);
  const clients = process.argv[3] ? Number(process.argv[3]) : undefined;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const t0 = Date.now();
  const ids = await seedDocuments(pool, count, clients);
  process.stdout.write(`seeded ${count} documents for ${ids.length} clients in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  await pool.end();
}

/**
 * Scale seed: 200,000 clients and 200,000 leads (by default) in a few seconds, with INSERT ... SELECT
 * over generate_series (one statement per table, so the counter triggers run once each).
 *
 *   DATABASE_URL=postgres://... node --import tsx services/crm/scripts/seed-scale.ts [clients] [leads]
 *
 * Applies crm's migrations first. Adds to what is there (run it on an empty database for exact figures).
 */
import { createPool, runMigrations } from '@countinghouse/kit';
import type pg from 'pg';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrationsFolder, SCHEMA } from '../src/plugin.js';

const FIRST = [
  'Oliver',
  'Amelia',
  'George',
  'Isla',
  'Harry',
  'Ava',
  'Jack',
  'Mia',
  'Charlie',
  'Grace',
  'Noah',
  'Ella',
  'Arthur',
  'Lily',
  'Leo',
  'Freya',
  'Oscar',
  'Sophia',
  'Alfie',
  'Priya',
  'Mohammed',
  'Aisha',
  'Rhys',
  'Siobhan',
  'Callum',
];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Wright',
  'Evans',
  'Thomas',
  'Roberts',
  'Walker',
  'Khan',
  'Hughes',
  'Green',
  'Hall',
  'Wood',
  'Clarke',
  'Murphy',
  'Campbell',
  'Okafor',
  'Nowak',
  'Lewis',
];
const WORD = [
  'Acorn',
  'Bramble',
  'Copper',
  'Dales',
  'Elm',
  'Fenland',
  'Granite',
  'Harbour',
  'Ironbridge',
  'Juniper',
  'Kestrel',
  'Lantern',
  'Meadow',
  'Northgate',
  'Oakwood',
  'Pennine',
  'Quayside',
  'Riverside',
  'Severn',
  'Thistle',
  'Union',
  'Vale',
  'Willow',
  'Yew',
  'Zenith',
];
const TRADE = [
  'Bakery',
  'Joinery',
  'Plumbing',
  'Digital',
  'Logistics',
  'Dental',
  'Florists',
  'Builders',
  'Consulting',
  'Studio',
  'Motors',
  'Cafe',
  'Pharmacy',
  'Fitness',
  'Lettings',
  'Engineering',
  'Tutoring',
  'Catering',
  'Print',
  'Vets',
];
const SUFFIX = ['Ltd', 'Ltd', 'Ltd', '& Co', 'LLP', 'Partners'];
const DOMAIN = ['co.uk', 'com', 'uk', 'org.uk'];
// Every package (and an unknown one, and none) with a realistic spread; fees via the same rule as the app.
const PACKAGES: Array<[string | null, number]> = [
  ['Sole Trader Package', 40],
  ['Partnership Package', 50],
  ['Limited Company Starter', 50],
  ['Growth', 100],
  ['Scale', 150],
  ['Professional', 200],
  ['Enterprise', 300],
  ['Legacy Bookkeeping', 50],
  [null, 50],
];
const STATUSES = ['active', 'active', 'active', 'active', 'active', 'pending', 'pending', 'cancelled', 'overdue'];
const STAGES = ['new_enquiry', 'new_enquiry', 'qualified', 'proposal_sent', 'negotiation', 'won', 'lost'];
const SOURCES = ['Website', 'Referral', 'Google Ads', 'Facebook', 'Networking event', 'GoHighLevel'];

const arr = (xs: ReadonlyArray<string | null>) =>
  `array[${xs.map((x) => (x === null ? 'null' : `'${x.replace(/'/g, "''")}'`)).join(',')}]::text[]`;
const pick = (xs: ReadonlyArray<string | null>, expr: string) => `(${arr(xs)})[1 + (${expr}) % ${xs.length}]`;

export async function seedScale(
  pool: pg.Pool,
  o: { clients?: number; leads?: number } = {},
): Promise<{ clients: number; leads: number; ms: number }> {
  const nClients = o.clients ?? 200_000;
  const nLeads = o.leads ?? 200_000;
  const t0 = Date.now();
  await runMigrations(pool, SCHEMA, migrationsFolder);
  const run = Date.now().toString(36);
  const pkgNames = PACKAGES.map((p) => p[0]);
  const pkgFees = PACKAGES.map((p) => String(p[1]));
  await pool.query(`
    insert into crm.clients (company_name, contact_name, contact_email, contact_phone, business_type, package_name, monthly_fee,
      subscription_status, next_billing_date, registration_date, onboarding_completed, employees_count, created_at, updated_at)
    select
      ${pick(WORD, 'i * 7')} || ' ' || ${pick(TRADE, 'i / 25')} || ' ' || ${pick(SUFFIX, 'i / 3')} || ' ' || i,
      ${pick(FIRST, 'i * 3')} || ' ' || ${pick(LAST, 'i / 7')},
      lower(${pick(FIRST, 'i * 3')} || '.' || ${pick(LAST, 'i / 7')}) || i || '.${run}@' || lower(${pick(WORD, 'i * 7')}) || '.' || ${pick(DOMAIN, 'i')},
      case when i % 4 = 0 then null else '07700 ' || lpad((i % 1000000)::text, 6, '0') end,
      (array['sole_trader','partnership','limited','limited'])[1 + i % 4],
      (${arr(pkgNames)})[1 + (i * 13) % ${PACKAGES.length}],
      (array[${pkgFees.join(',')}]::numeric[])[1 + (i * 13) % ${PACKAGES.length}],
      ${pick(STATUSES, 'i * 11')},
      current_date + (i % 28),
      t, i % 3 <> 0, (i * 37) % 250, t, t
    from (select i, now() - (i * interval '7 minutes') - interval '1 day' as t from generate_series(1, ${nClients}) as i) s`);
  await pool.query(`
    insert into crm.leads (name, email, phone, company_name, stage, business_type, quote_amount, source, tags, created_at, updated_at)
    select
      ${pick(FIRST, 'i * 5')} || ' ' || ${pick(LAST, 'i / 11')},
      lower(${pick(FIRST, 'i * 5')} || '.' || ${pick(LAST, 'i / 11')}) || i || '.${run}@lead.' || ${pick(DOMAIN, 'i')},
      case when i % 3 = 0 then null else '07800 ' || lpad((i % 1000000)::text, 6, '0') end,
      case when i % 5 = 0 then null else ${pick(WORD, 'i * 3')} || ' ' || ${pick(TRADE, 'i / 13')} || ' ' || ${pick(SUFFIX, 'i')} end,
      ${pick(STAGES, 'i * 7')},
      (array['sole_trader','partnership','limited'])[1 + i % 3],
      case when i % 2 = 0 then (40 + (i % 6) * 50)::numeric else null end,
      ${pick(SOURCES, 'i * 3')},
      '{}'::text[], t, t
    from (select i, now() - (i * interval '6 minutes') as t from generate_series(1, ${nLeads}) as i) s`);
  await pool.query('analyze crm.clients');
  await pool.query('analyze crm.leads');
  return { clients: nClients, leads: nLeads, ms: Date.now() - t0 };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write('Set DATABASE_URL to the PostgreSQL database to seed.\n');
    process.exit(78);
  }
  const pool = createPool(url, 2);
  const [c, l] = process.argv.slice(2).map(Number);
  const r = await seedScale(pool, { clients: c || undefined, leads: l || undefined });
  process.stdout.write(`Seeded ${r.clients} clients and ${r.leads} leads in ${r.ms} ms\n`);
  await pool.end();
}

import { enqueueEvent, type Db } from '@countinghouse/kit';
import { STAFF_PORTAL_ROLES, type Role } from '@countinghouse/proto';
import { inArray, sql } from 'drizzle-orm';
import { grantRole } from './db/queries.js';
import { profiles, SCHEMA, users } from './db/schema.js';
import { generatePassword } from './domain/admin-users.js';
import { hashPassword, passwordProblem } from './adapters/passwords.js';

/** The demo practice's people: one of each staff role and two clients. All share one password (seedIdentityDemo). */
export const DEMO_PEOPLE: Array<{ email: string; first: string; last: string; role: Role; company?: string; alsoRoles?: Role[] }> = [
  // The practice's MLRO (issue 26): a manager who also holds mlro, so due diligence can be approved.
  { email: 'margaret.hale@countinghouse.demo', first: 'Margaret', last: 'Hale', role: 'manager', alsoRoles: ['mlro'] },
  { email: 'tom.fraser@countinghouse.demo', first: 'Tom', last: 'Fraser', role: 'staff' },
  { email: 'priya.shah@countinghouse.demo', first: 'Priya', last: 'Shah', role: 'accountant' },
  { email: 'owen.davies@countinghouse.demo', first: 'Owen', last: 'Davies', role: 'accountant' },
  { email: 'sarah@brightsparkelectrical.demo', first: 'Sarah', last: 'Collins', role: 'client', company: 'Bright Spark Electrical Ltd' },
  { email: 'james@hollowayandpartners.demo', first: 'James', last: 'Holloway', role: 'client', company: 'Holloway & Partners' },
];

export class DemoSeedRefused extends Error {}

export interface DemoSeedOptions {
  /** NODE_ENV: the seed refuses to run in production. */
  nodeEnv: string;
  /** DEMO_PASSWORD when set (checked as a staff password); otherwise one is generated, returned to be shown once. */
  password?: string;
}

/** Throws DemoSeedRefused, with the reason, when the seed may not run: call it before anything else starts. */
export function assertDemoSeedAllowed(o: DemoSeedOptions): void {
  if (o.nodeEnv === 'production')
    throw new DemoSeedRefused(
      'The demo practice is not seeded when NODE_ENV=production: its people hold staff roles with a shared password. Set SEED_DEMO=false.',
    );
  const problem = o.password === undefined ? null : passwordProblem(o.password);
  if (problem) throw new DemoSeedRefused(`DEMO_PASSWORD: ${problem}`);
}

/**
 * Seed the demo people into an identity schema that has none. Returns how many were created and, when
 * it was generated, their password (the launcher prints it once; it is stored only as a hash).
 * Demo people hold real staff roles: never in production.
 */
export async function seedIdentityDemo(
  db: Db,
  o: DemoSeedOptions,
): Promise<{ created: number; generatedPassword?: string; people?: Array<{ id: string; email: string; role: Role }> }> {
  assertDemoSeedAllowed(o);
  const existing = await db.execute(sql`select count(*)::int as n from identity.users`);
  if (Number(existing.rows[0]?.n ?? 0) > 0) return { created: 0 };
  const password = o.password ?? generatePassword();
  const hash = await hashPassword(password);
  const people: Array<{ id: string; email: string; role: Role }> = [];
  await db.transaction(async (tx) => {
    for (const p of DEMO_PEOPLE) {
      const [u] = await tx.insert(users).values({ email: p.email, passwordHash: hash }).returning({ id: users.id });
      await tx
        .insert(profiles)
        .values({ userId: u!.id, email: p.email, firstName: p.first, lastName: p.last, companyName: p.company ?? null, role: p.role });
      people.push({ id: u!.id, email: p.email, role: p.role });
      for (const role of [p.role, ...(p.alsoRoles ?? [])]) {
        await grantRole(tx, u!.id, role, null);
        // Other services keep read models of who holds which role (Team Members, accountant names).
        await enqueueEvent(
          tx,
          SCHEMA,
          'identity.role_changed',
          { userId: u!.id, role, isActive: true, email: p.email, name: `${p.first} ${p.last}` },
          { actor: { kind: 'system', id: null }, key: u!.id },
        );
      }
      // A demo client signed up like anyone else: billing needs the e-mail (and the new client record
      // the name and company) to take a payment, so the demo's own checkout works (issue 22).
      if (p.role === 'client')
        await enqueueEvent(
          tx,
          SCHEMA,
          'identity.user_registered',
          { userId: u!.id, email: p.email, firstName: p.first, lastName: p.last, companyName: p.company ?? null },
          { actor: { kind: 'system', id: null }, key: u!.id },
        );
    }
  });
  return { created: DEMO_PEOPLE.length, generatedPassword: o.password === undefined ? password : undefined, people };
}

/**
 * The page where a demo person signs in (issue 33): clients at /login, staff at /staff/login (the staff
 * portal's sign-in: admin, manager, staff). An accountant is not allowed into the staff portal (spec 6)
 * and signs in at /login, which takes them to My work (issue 26). Null when no page lets that role in.
 */
export function demoSignInPage(role: Role): string | null {
  if (role === 'client' || role === 'accountant') return '/login';
  if (STAFF_PORTAL_ROLES.includes(role)) return '/staff/login';
  return null;
}

export interface DemoSignIn {
  role: Role;
  email: string;
  page: string;
}

/**
 * The demo sign-ins worth printing at start: only people who can use the product. A person with no
 * sign-in page is left out, and so is a client linked to no business (`linkedClientUserIds`: the user
 * ids crm's client records name), who would only meet an empty dashboard.
 */
export async function demoSignIns(db: Db, linkedClientUserIds: ReadonlySet<string>): Promise<DemoSignIn[]> {
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_PEOPLE.map((p) => p.email),
      ),
    );
  const idOf = new Map(rows.map((r) => [r.email, r.id]));
  const out: DemoSignIn[] = [];
  for (const p of DEMO_PEOPLE) {
    const id = idOf.get(p.email);
    const page = demoSignInPage(p.role);
    if (!id || !page) continue;
    if (p.role === 'client' && !linkedClientUserIds.has(id)) continue;
    out.push({ role: p.role, email: p.email, page });
  }
  return out;
}

/** The launcher's lines: each person's role and e-mail next to the page where they sign in. */
export function formatDemoSignIns(list: readonly DemoSignIn[], baseUrl = ''): string {
  const width = Math.max(0, ...list.map((p) => p.email.length));
  return list.map((p) => `    ${p.role.padEnd(10)} ${p.email.padEnd(width)}  sign in at ${baseUrl}${p.page}`).join('\n');
}

import { enqueueEvent, type Db } from '@countinghouse/kit';
import type { Role } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { grantRole } from './db/people-queries.js';
import { profiles, SCHEMA, users } from './db/schema.js';
import { hashPassword } from './passwords.js';

export const DEMO_PASSWORD = 'demo-password';

/** The demo practice's people: one of each staff role and two clients. All share DEMO_PASSWORD. */
export const DEMO_PEOPLE: Array<{ email: string; first: string; last: string; role: Role; company?: string }> = [
  { email: 'margaret.hale@countinghouse.demo', first: 'Margaret', last: 'Hale', role: 'manager' },
  { email: 'tom.fraser@countinghouse.demo', first: 'Tom', last: 'Fraser', role: 'staff' },
  { email: 'priya.shah@countinghouse.demo', first: 'Priya', last: 'Shah', role: 'accountant' },
  { email: 'owen.davies@countinghouse.demo', first: 'Owen', last: 'Davies', role: 'accountant' },
  { email: 'sarah@brightsparkelectrical.demo', first: 'Sarah', last: 'Collins', role: 'client', company: 'Bright Spark Electrical Ltd' },
  { email: 'james@hollowayandpartners.demo', first: 'James', last: 'Holloway', role: 'client', company: 'Holloway & Partners' },
];

/** Seed the demo people into an identity schema that has none. Returns how many were created. */
export async function seedIdentityDemo(db: Db): Promise<number> {
  const existing = await db.execute(sql`select count(*)::int as n from identity.users`);
  if (Number(existing.rows[0]?.n ?? 0) > 0) return 0;
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    for (const p of DEMO_PEOPLE) {
      const [u] = await tx.insert(users).values({ email: p.email, passwordHash: hash }).returning({ id: users.id });
      await tx
        .insert(profiles)
        .values({ userId: u!.id, email: p.email, firstName: p.first, lastName: p.last, companyName: p.company ?? null, role: p.role });
      await grantRole(tx, u!.id, p.role, null);
      // Other services keep read models of who holds which role (Team Members, accountant names).
      await enqueueEvent(
        tx,
        SCHEMA,
        'identity.role_changed',
        { userId: u!.id, role: p.role, isActive: true, email: p.email, name: `${p.first} ${p.last}` },
        { actor: { kind: 'system', id: null }, key: u!.id },
      );
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
  return DEMO_PEOPLE.length;
}

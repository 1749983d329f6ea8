import type { Db } from '@countinghouse/kit';
import type { LeadStage, SubscriptionStatus } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { feeForPackage } from './domain/clients.js';
import { publishClientUpserted } from './db/queries.js';
import { clients, clientUpgrades, communications, leads, tasks } from './db/schema.js';

type SeedClient = {
  company: string;
  contact: string;
  email: string;
  phone: string | null;
  type: 'sole_trader' | 'partnership' | 'limited';
  pkg: string | null;
  status: SubscriptionStatus;
  employees: number;
  daysAgo: number;
  onboarded: boolean;
};

// A small UK practice: every package (and one unknown, billed at the default 50), every status.
const CLIENTS: SeedClient[] = [
  {
    company: 'Hartley & Green Joinery',
    contact: 'Tom Hartley',
    email: 'tom@hartleygreen.co.uk',
    phone: '0113 496 0123',
    type: 'partnership',
    pkg: 'Partnership Package',
    status: 'active',
    employees: 4,
    daysAgo: 400,
    onboarded: true,
  },
  {
    company: 'Priya Shah Photography',
    contact: 'Priya Shah',
    email: 'hello@priyashah.photo',
    phone: '07700 900123',
    type: 'sole_trader',
    pkg: 'Sole Trader Package',
    status: 'active',
    employees: 0,
    daysAgo: 320,
    onboarded: true,
  },
  {
    company: 'Northgate Digital Ltd',
    contact: 'Eleanor Price',
    email: 'accounts@northgatedigital.co.uk',
    phone: '0161 496 0456',
    type: 'limited',
    pkg: 'Limited Company Starter',
    status: 'active',
    employees: 3,
    daysAgo: 290,
    onboarded: true,
  },
  {
    company: 'Bramble Café Ltd',
    contact: 'Owen Jones',
    email: 'owen@bramblecafe.co.uk',
    phone: '029 2018 0789',
    type: 'limited',
    pkg: 'Growth',
    status: 'active',
    employees: 12,
    daysAgo: 250,
    onboarded: true,
  },
  {
    company: 'Thames Valley Logistics Ltd',
    contact: 'Sarah Mitchell',
    email: 'finance@tvlogistics.co.uk',
    phone: '0118 496 0321',
    type: 'limited',
    pkg: 'Scale',
    status: 'active',
    employees: 38,
    daysAgo: 210,
    onboarded: true,
  },
  {
    company: 'Kestrel Engineering Ltd',
    contact: 'David Okafor',
    email: 'd.okafor@kestreleng.co.uk',
    phone: '0121 496 0654',
    type: 'limited',
    pkg: 'Professional',
    status: 'overdue',
    employees: 55,
    daysAgo: 180,
    onboarded: true,
  },
  {
    company: 'Albion Property Group Ltd',
    contact: 'Charlotte Hughes',
    email: 'charlotte@albionproperty.co.uk',
    phone: '020 7946 0987',
    type: 'limited',
    pkg: 'Enterprise',
    status: 'active',
    employees: 140,
    daysAgo: 150,
    onboarded: true,
  },
  {
    company: 'Seaview Holiday Lets',
    contact: 'Gareth Evans',
    email: 'gareth@seaviewlets.co.uk',
    phone: null,
    type: 'sole_trader',
    pkg: 'Sole Trader Package',
    status: 'pending',
    employees: 0,
    daysAgo: 12,
    onboarded: false,
  },
  {
    company: 'Copper Kettle Bakery Ltd',
    contact: 'Aisha Rahman',
    email: 'aisha@copperkettle.co.uk',
    phone: '0117 496 0111',
    type: 'limited',
    pkg: 'Growth',
    status: 'pending',
    employees: 7,
    daysAgo: 6,
    onboarded: false,
  },
  {
    company: 'Fenwick Tutoring',
    contact: 'James Fenwick',
    email: 'james@fenwicktutoring.co.uk',
    phone: '07700 900456',
    type: 'sole_trader',
    pkg: 'Sole Trader Package',
    status: 'active',
    employees: 0,
    daysAgo: 95,
    onboarded: true,
  },
  {
    company: 'Moorland Builders Ltd',
    contact: 'Rachel Booth',
    email: 'rachel@moorlandbuilders.co.uk',
    phone: '01904 496 222',
    type: 'limited',
    pkg: 'Limited Company Starter',
    status: 'cancelled',
    employees: 9,
    daysAgo: 365,
    onboarded: true,
  },
  {
    company: 'Lumen Studio Ltd',
    contact: 'Marcus Lee',
    email: 'marcus@lumenstudio.co.uk',
    phone: '020 7946 0555',
    type: 'limited',
    pkg: 'Scale',
    status: 'overdue',
    employees: 21,
    daysAgo: 60,
    onboarded: true,
  },
];

const LEADS: Array<{
  name: string;
  email: string;
  company: string | null;
  stage: LeadStage;
  type: 'sole_trader' | 'partnership' | 'limited' | null;
  quote: number | null;
  source: string;
  daysAgo: number;
}> = [
  {
    name: 'Hannah Clarke',
    email: 'hannah@clarkeflorist.co.uk',
    company: 'Clarke Florists',
    stage: 'new_enquiry',
    type: 'sole_trader',
    quote: null,
    source: 'Website',
    daysAgo: 1,
  },
  {
    name: 'Ben Walsh',
    email: 'ben.walsh@walshplumbing.co.uk',
    company: 'Walsh Plumbing Ltd',
    stage: 'new_enquiry',
    type: 'limited',
    quote: null,
    source: 'Google Ads',
    daysAgo: 2,
  },
  {
    name: 'Sophie Turner',
    email: 'sophie@turnerdesign.co.uk',
    company: null,
    stage: 'qualified',
    type: 'sole_trader',
    quote: 40,
    source: 'Referral',
    daysAgo: 5,
  },
  {
    name: 'Raj Patel',
    email: 'raj@patelpharmacy.co.uk',
    company: 'Patel Pharmacy Ltd',
    stage: 'proposal_sent',
    type: 'limited',
    quote: 150,
    source: 'Website',
    daysAgo: 9,
  },
  {
    name: 'Emma Wilson',
    email: 'emma@wilsonandbrown.co.uk',
    company: 'Wilson & Brown',
    stage: 'negotiation',
    type: 'partnership',
    quote: 50,
    source: 'Networking event',
    daysAgo: 14,
  },
  {
    name: 'Liam Murphy',
    email: 'liam@murphyfitness.co.uk',
    company: 'Murphy Fitness Ltd',
    stage: 'won',
    type: 'limited',
    quote: 100,
    source: 'Referral',
    daysAgo: 20,
  },
  {
    name: 'Grace Thompson',
    email: 'grace@thompsonvets.co.uk',
    company: 'Thompson Vets Ltd',
    stage: 'lost',
    type: 'limited',
    quote: 200,
    source: 'Google Ads',
    daysAgo: 30,
  },
  {
    name: 'Oliver Bennett',
    email: 'oliver@bennettcarpentry.co.uk',
    company: null,
    stage: 'qualified',
    type: 'sole_trader',
    quote: null,
    source: 'Facebook',
    daysAgo: 3,
  },
];

/** What billing's demo seed needs to know about one demo client: plain data, no crm database. */
export interface DemoClientFacts {
  company: string;
  contact: string;
  email: string;
  pkg: string | null;
  status: SubscriptionStatus;
  daysAgo: number;
}

/** The demo clients' facts, for the launcher to hand to billing's demo seed (seedBillingDemo). */
export function demoClientFacts(): DemoClientFacts[] {
  return CLIENTS.map(({ company, contact, email, pkg, status, daysAgo }) => ({ company, contact, email, pkg, status, daysAgo }));
}

const day = 24 * 60 * 60 * 1000;

/** Give an empty crm schema a small, realistic practice. Does nothing when there are clients already. */
export interface DemoSeededClient {
  clientId: string;
  companyName: string;
  contactName: string | null;
  type: 'sole_trader' | 'partnership' | 'limited';
  employees: number;
  since: string;
  cancelled: boolean;
}

export async function seedCrmDemo(
  db: Db,
  now: Date = new Date(),
  /** The demo accountants' user ids: every current client but one is assigned to one of them, in turn (issue 26). */
  opts: { accountantIds?: string[] } = {},
): Promise<{ seeded: boolean; clients: number; leads: number; made?: DemoSeededClient[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('crm-demo-seed'))`);
    const { rows } = await tx.execute<{ n: number }>(sql`select count(*)::int as n from ${clients}`);
    if ((rows[0]?.n ?? 0) > 0) return { seeded: false, clients: 0, leads: 0 };
    const actor = { kind: 'system', id: null } as const;
    const made: Array<typeof clients.$inferSelect> = [];
    const accountants = opts.accountantIds ?? [];
    // The last client stays unassigned (the clients list's "no accountant" case).
    const accountantFor = (i: number) => (accountants.length && i < CLIENTS.length - 1 ? accountants[i % accountants.length]! : null);
    for (const c of CLIENTS) {
      const registered = new Date(now.getTime() - c.daysAgo * day);
      const next = c.status === 'cancelled' ? null : new Date(now.getTime() + ((c.daysAgo % 28) + 1) * day).toISOString().slice(0, 10);
      const [row] = await tx
        .insert(clients)
        .values({
          companyName: c.company,
          contactName: c.contact,
          contactEmail: c.email,
          contactPhone: c.phone,
          businessType: c.type,
          packageName: c.pkg,
          monthlyFee: feeForPackage(c.pkg),
          subscriptionStatus: c.status,
          nextBillingDate: next,
          registrationDate: registered,
          onboardingCompleted: c.onboarded,
          employeesCount: c.employees,
          createdAt: registered,
          assignedAccountantId: accountantFor(made.length),
        })
        .returning();
      await publishClientUpserted(tx, row!, actor);
      made.push(row!);
    }
    for (const l of LEADS) {
      await tx.insert(leads).values({
        name: l.name,
        email: l.email,
        companyName: l.company,
        stage: l.stage,
        businessType: l.type,
        quoteAmount: l.quote,
        source: l.source,
        createdAt: new Date(now.getTime() - l.daysAgo * day),
      });
    }
    const by = (name: string) => made.find((c) => c.companyName === name)!.id;
    const iso = (d: number) => new Date(now.getTime() + d * day).toISOString().slice(0, 10);
    await tx.insert(tasks).values([
      { title: 'VAT return Q3 for Bramble Café', clientId: by('Bramble Café Ltd'), dueDate: iso(7), priority: 'high', status: 'pending' },
      {
        title: 'Year-end accounts: Thames Valley Logistics',
        clientId: by('Thames Valley Logistics Ltd'),
        dueDate: iso(21),
        priority: 'medium',
        status: 'in_progress',
      },
      {
        title: 'Chase overdue invoice: Kestrel Engineering',
        clientId: by('Kestrel Engineering Ltd'),
        dueDate: iso(-2),
        priority: 'urgent',
        status: 'pending',
      },
      {
        title: 'Onboarding call with Copper Kettle Bakery',
        clientId: by('Copper Kettle Bakery Ltd'),
        dueDate: iso(2),
        priority: 'medium',
        status: 'pending',
      },
      {
        title: 'Self Assessment for Priya Shah',
        clientId: by('Priya Shah Photography'),
        dueDate: iso(-10),
        priority: 'low',
        status: 'completed',
        completedAt: new Date(now.getTime() - 11 * day),
      },
    ]);
    await tx.insert(clientUpgrades).values([
      {
        clientId: by('Northgate Digital Ltd'),
        fromPackage: 'Limited Company Starter',
        toPackage: 'Growth',
        status: 'pending',
        requestedAt: new Date(now.getTime() - 2 * day),
      },
      {
        clientId: by('Bramble Café Ltd'),
        fromPackage: 'Growth',
        toPackage: 'Scale',
        status: 'approved',
        requestedAt: new Date(now.getTime() - 8 * day),
        decidedAt: new Date(now.getTime() - 6 * day),
      },
      {
        clientId: by('Hartley & Green Joinery'),
        fromPackage: 'Partnership Package',
        toPackage: 'Growth',
        status: 'rejected',
        requestedAt: new Date(now.getTime() - 40 * day),
        decidedAt: new Date(now.getTime() - 38 * day),
      },
    ]);
    await tx.insert(communications).values([
      {
        clientId: by('Kestrel Engineering Ltd'),
        channel: 'email',
        direction: 'outbound',
        subject: 'Payment reminder: invoice overdue',
        body: 'A friendly reminder that this month’s fee is overdue.',
        occurredAt: new Date(now.getTime() - 3 * 60 * 60 * 1000),
      },
      {
        clientId: by('Copper Kettle Bakery Ltd'),
        channel: 'phone',
        direction: 'inbound',
        subject: 'Question about payroll set-up',
        body: null,
        occurredAt: new Date(now.getTime() - 20 * 60 * 60 * 1000),
      },
      {
        clientId: by('Albion Property Group Ltd'),
        channel: 'meeting',
        direction: 'outbound',
        subject: 'Quarterly review',
        body: 'Reviewed management accounts and cash flow forecast.',
        occurredAt: new Date(now.getTime() - 5 * day),
        createdAt: new Date(now.getTime() - 5 * day),
      },
      {
        clientId: by('Thames Valley Logistics Ltd'),
        channel: 'letter',
        direction: 'inbound',
        subject: 'HMRC notice forwarded',
        body: null,
        occurredAt: new Date(now.getTime() - 9 * day),
        createdAt: new Date(now.getTime() - 9 * day),
      },
      {
        clientId: by('Northgate Digital Ltd'),
        channel: 'portal',
        direction: 'inbound',
        subject: 'Upgrade request: Growth package',
        body: null,
        occurredAt: new Date(now.getTime() - 2 * day),
        createdAt: new Date(now.getTime() - 2 * day),
      },
    ]);
    const seeded: DemoSeededClient[] = made.map((row, i) => ({
      clientId: row.id,
      companyName: row.companyName,
      contactName: row.contactName,
      type: CLIENTS[i]!.type,
      employees: CLIENTS[i]!.employees,
      since: row.registrationDate.toISOString().slice(0, 10),
      cancelled: row.subscriptionStatus === 'cancelled',
    }));
    return { seeded: true, clients: CLIENTS.length, leads: LEADS.length, made: seeded };
  });
}

/** The user ids client records name (a signed-in client's business): the launcher prints only demo clients who have one. */
export async function linkedClientUserIds(db: Db): Promise<Set<string>> {
  const { rows } = await db.execute<{ user_id: string }>(sql`select user_id from ${clients} where user_id is not null`);
  return new Set(rows.map((r) => r.user_id));
}

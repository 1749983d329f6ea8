// Identity verification of directors and persons with significant control (PSCs) with Companies House.
// Law: Economic Crime and Corporate Transparency Act 2023 (ECCTA), Part 1 (Companies Act 2006 ss.1110A-1110F,
// s.167M for directors, s.790LJ-790LK for PSCs); Companies House guidance "Identity verification: what you need
// to do" and "Transition period for existing directors and PSCs" (gov.uk, 2025). Verification became
// compulsory on 18 November 2025; existing people verify during the 12-month transition that follows.
// Pure: every date comes in as an argument.
import type { CompanyOfficer, CompanyPsc, IdentityVerificationDetails } from '@countinghouse/proto';
import { addDays, addMonths, dayInMonth, enGb, parseDate, type IsoDate } from './dates.js';

/** The day identity verification became compulsory (ECCTA commencement, Companies House guidance). */
export const IDV_START: IsoDate = '2025-11-18';
/** The last day of the transition year for people in office on IDV_START. */
export const IDV_TRANSITION_END: IsoDate = '2026-11-17';

/** Officer roles that must verify (directors and LLP members; secretaries need not). */
const VERIFYING_OFFICER_ROLES = new Set([
  'director',
  'nominee-director',
  'corporate-director',
  'llp-member',
  'llp-designated-member',
  'corporate-llp-member',
  'corporate-llp-designated-member',
]);

export type IdvPersonKind = 'director' | 'psc' | 'relevant_legal_entity';

/** A person the rules look at: an officer who must verify or a PSC (statements excluded). */
export interface IdvPerson {
  /** Same key as the AML file's people (aml domain/companies-house.ts): role kind and name as Companies House writes it. */
  key: string;
  name: string;
  kind: IdvPersonKind;
  /** Corporate officers verify through their own relevant officer; kept for the record, never derived here. */
  corporate: boolean;
  /** Appointed on (officer) or notified on (PSC). */
  startedOn: IsoDate | null;
  birth: { month: number; year: number } | null;
  /** A PSC who is also one of the company's directors. */
  alsoDirector: boolean;
  details: IdentityVerificationDetails | null;
}

/** A verification the practice recorded as an ACSP (aml's record), overriding "not verified" from Companies House. */
export interface PracticeVerification {
  verifiedOn: IsoDate;
  byName: string;
}

/** The company's confirmation statement facts the transition rule needs. */
export interface IdvCompany {
  /** The review (made-up) date of the next confirmation statement. */
  confirmationNextMadeUpTo: IsoDate | null;
  /** Companies House's due date of that statement. */
  confirmationNextDue: IsoDate | null;
}

export type IdvRule =
  'before_appointment' | 'confirmation_statement' | 'after_confirmation_statement' | 'month_of_birth' | 'new_psc_14_days' | 'rle_28_days';

export const IDV_RULE_TEXT: Record<IdvRule, string> = {
  before_appointment: 'before appointment',
  confirmation_statement: 'by the confirmation statement',
  after_confirmation_statement: '14 days after the confirmation statement',
  month_of_birth: 'first 14 days of the month of birth',
  new_psc_14_days: '14 days',
  rle_28_days: '28 days',
};

export type IdvStatus =
  | { status: 'verified'; verifiedOn: IsoDate; by: string | null }
  | { status: 'due' | 'overdue'; dueOn: IsoDate; source: 'companies_house' | 'rule'; rule: IdvRule | null }
  | { status: 'unknown' };

const isIso = (v: string | null | undefined): v is IsoDate => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * The confirmation statement of the transition year: the one whose review period ends between 18 Nov 2025
 * and 17 Nov 2026, found from the next one Companies House lists (statements come every 12 months,
 * Companies Act 2006 s.853A). Its filing date (14 days after the review date, s.853A(1)) is the date.
 */
export function transitionStatementDue(c: IdvCompany): IsoDate | null {
  let review = c.confirmationNextMadeUpTo ?? (isIso(c.confirmationNextDue) ? addDays(c.confirmationNextDue, -14) : null);
  if (!review) return null;
  const original = review;
  for (let i = 0; i < 50 && review > IDV_TRANSITION_END; i++) review = addMonths(original, -12 * (i + 1));
  for (let i = 0; i < 50 && review < IDV_START; i++) review = addMonths(original, 12 * (i + 1));
  if (review < IDV_START || review > IDV_TRANSITION_END) return null;
  if (review === c.confirmationNextMadeUpTo && c.confirmationNextDue) return c.confirmationNextDue;
  return addDays(review, 14);
}

/**
 * The date a person must verify by, derived when Companies House gives none:
 * - new director (appointed on or after 18 Nov 2025): before appointment (s.167M), so by the appointment date;
 * - existing director: by the company's confirmation statement in the transition year;
 * - PSC who is also a director: within 14 days after that statement;
 * - other existing individual PSC: within the first 14 days of their month of birth (the first such month
 *   ending on or after 18 Nov 2025), from the month Companies House publishes;
 * - new individual PSC: within 14 days of registration (notification) (s.790LJ);
 * - relevant legal entity: within 28 days of registration, through its verified relevant officer.
 * Null when the facts do not decide it (an existing legal entity, a birth month not published).
 */
export function derivedDueDate(p: IdvPerson, c: IdvCompany): { dueOn: IsoDate; rule: IdvRule } | null {
  const isNew = !!p.startedOn && p.startedOn >= IDV_START;
  if (p.kind === 'director') {
    if (isNew) return { dueOn: p.startedOn!, rule: 'before_appointment' };
    const due = transitionStatementDue(c);
    return due ? { dueOn: due, rule: 'confirmation_statement' } : null;
  }
  if (p.kind === 'relevant_legal_entity') {
    return isNew ? { dueOn: addDays(p.startedOn!, 28), rule: 'rle_28_days' } : null;
  }
  if (isNew) return { dueOn: addDays(p.startedOn!, 14), rule: 'new_psc_14_days' };
  if (p.alsoDirector) {
    const due = transitionStatementDue(c);
    return due ? { dueOn: addDays(due, 14), rule: 'after_confirmation_statement' } : null;
  }
  if (!p.birth || p.birth.month < 1 || p.birth.month > 12) return null;
  const { y } = parseDate(IDV_START);
  let due = dayInMonth(y, p.birth.month, 14);
  if (due < IDV_START) due = dayInMonth(y + 1, p.birth.month, 14);
  return { dueOn: due, rule: 'month_of_birth' };
}

/** One person's status on a day: verified (Companies House or the practice), due, overdue or not yet known. */
export function identityStatus(p: IdvPerson, c: IdvCompany, today: IsoDate, practice: PracticeVerification | null = null): IdvStatus {
  const d = p.details;
  if (d && isIso(d.identity_verified_on))
    return { status: 'verified', verifiedOn: d.identity_verified_on, by: d.authorised_corporate_service_provider_name };
  if (practice) return { status: 'verified', verifiedOn: practice.verifiedOn, by: practice.byName };
  const fromCh = d && isIso(d.appointment_verification_statement_due_on) ? d.appointment_verification_statement_due_on : null;
  if (fromCh) return { status: fromCh < today ? 'overdue' : 'due', dueOn: fromCh, source: 'companies_house', rule: null };
  const derived = derivedDueDate(p, c);
  if (!derived) return { status: 'unknown' };
  const { dueOn, rule } = derived;
  const source = 'rule' as const;
  return { status: dueOn < today ? 'overdue' : 'due', dueOn, source, rule };
}

/** "2 Mar 2026": the texts write the day without a leading zero. */
const dayText = (iso: IsoDate) => enGb(iso).replace(/^0/, '');

/** What the product shows: "verified 2 Mar 2026", "due 14 Dec 2026", "overdue since 1 Sep 2026", "due 4 Dec 2026 (14 days, derived)". */
export function identityStatusText(s: IdvStatus): string {
  if (s.status === 'unknown') return 'not yet known';
  if (s.status === 'verified') return `verified ${dayText(s.verifiedOn)}`;
  const head = s.status === 'overdue' ? `overdue since ${dayText(s.dueOn)}` : `due ${dayText(s.dueOn)}`;
  return s.source === 'rule' && s.rule ? `${head} (${IDV_RULE_TEXT[s.rule]}, derived)` : head;
}

const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'sir', 'dame', 'lord', 'lady', 'prof', 'rev']);
function nameTokens(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/[^a-z\s'-]/g, ' ')
    .split(/\s+/)
    .filter((t) => t && !TITLES.has(t));
}

/** An officer "SURNAME, Forename Middle" and a PSC "Mrs Forename Middle Surname" are the same person when names (and birth month, when both given) agree. */
export function samePerson(officer: CompanyOfficer, psc: CompanyPsc): boolean {
  const [surnamePart, forenames = ''] = officer.name.split(',');
  const surname = nameTokens(surnamePart ?? '');
  const first = nameTokens(forenames)[0];
  const pscTokens = new Set(nameTokens(psc.name));
  if (!surname.length || !first || !surname.every((t) => pscTokens.has(t)) || !pscTokens.has(first)) return false;
  const a = officer.date_of_birth;
  const b = psc.date_of_birth;
  return !a || !b || (a.month === b.month && a.year === b.year);
}

/** The people to verify, in Companies House's order (officers, then PSCs); ceased ones and secretaries left out. */
export function idvPeople(officers: readonly CompanyOfficer[], pscs: readonly CompanyPsc[]): IdvPerson[] {
  const out: IdvPerson[] = [];
  const directors = officers.filter((o) => VERIFYING_OFFICER_ROLES.has(o.officer_role) && !o.resigned_on && o.name);
  for (const o of directors) {
    out.push({
      key: `officer:${o.officer_role}:${o.name}`,
      name: o.name,
      kind: 'director',
      corporate: o.officer_role.startsWith('corporate-'),
      startedOn: isIso(o.appointed_on) ? o.appointed_on : null,
      birth: o.date_of_birth ?? null,
      alsoDirector: false,
      details: o.identity_verification_details ?? null,
    });
  }
  for (const p of pscs) {
    if (!p.name || p.ceased_on || /statement/.test(p.kind)) continue;
    const legal = /corporate-entity|legal-person/.test(p.kind);
    out.push({
      key: `psc:${p.name}`,
      name: p.name,
      kind: legal ? 'relevant_legal_entity' : 'psc',
      corporate: legal,
      startedOn: isIso(p.notified_on) ? p.notified_on : null,
      birth: p.date_of_birth ?? null,
      alsoDirector: !legal && directors.some((o) => samePerson(o, p)),
      details: p.identity_verification_details ?? null,
    });
  }
  return out;
}

/** How many days ahead of a verification date the client's contact is reminded (and once more when the date moves). */
export const IDV_REMINDER_DAYS = 30;

/** "SMITH, Jane Anne" (an officer as Companies House writes them) → "Jane Anne Smith"; other names as they are. */
export function displayName(name: string, preferred: string | null = null): string {
  if (preferred) return preferred;
  const m = /^([^,]+),\s*(.+)$/.exec(name.trim());
  if (!m) return name.trim();
  const surname = m[1]!
    .trim()
    .toLowerCase()
    .replace(/(^|[\s'-])\p{L}/gu, (c) => c.toUpperCase());
  return `${m[2]!.trim()} ${surname}`;
}

function possessive(name: string): string {
  if (/^(mrs|ms|miss|lady|dame)\b/i.test(name)) return 'her';
  if (/^(mr|sir|lord)\b/i.test(name)) return 'his';
  return 'their';
}

/**
 * The reminder to the client's contact: "Jane Smith must verify her identity by 14 Dec 2026", with how to
 * do it through GOV.UK One Login (Companies House guidance "Verifying your identity for Companies House").
 */
export function identityReminderText(o: {
  name: string;
  preferredName: string | null;
  dueOn: IsoDate;
  overdue: boolean;
  companyName: string;
  relevantLegalEntity: boolean;
}): {
  subject: string;
  text: string;
} {
  const who = displayName(o.name, o.preferredName);
  const due = dayText(o.dueOn);
  const headline = o.relevantLegalEntity
    ? `${who} must give Companies House the details of its verified relevant officer by ${due}`
    : `${who} must verify ${possessive(o.name)} identity by ${due}`;
  const lines = [
    `${headline}${o.overdue ? ' (this date has passed)' : ''}.`,
    '',
    `Companies House requires every director and person with significant control of ${o.companyName} to verify their identity (Economic Crime and Corporate Transparency Act 2023). Until everyone has, the company cannot file its confirmation statement.`,
    '',
    'How to verify with GOV.UK One Login:',
    '1. Go to https://www.gov.uk/guidance/verifying-your-identity-for-companies-house and choose to verify online.',
    '2. Sign in to (or create) a GOV.UK One Login account and prove your identity with photo ID, using the GOV.UK ID Check app or online.',
    '3. Companies House gives you a personal code of 11 characters: send it to us, and keep it safe.',
    '',
    'If you would rather we verify you as your Authorised Corporate Service Provider, reply to this e-mail and we will arrange it.',
  ];
  return { subject: `Identity verification for Companies House: ${who}, by ${due}`.slice(0, 200), text: lines.join('\n') };
}

import { clientScopeOf, type Principal } from '@countinghouse/kit';
import { blockedText, type Deadline, type IdentityList, type IdentityListQuery, type IdentityPerson } from '@countinghouse/proto';
import { listIdentityPeople, unverifiedCounts, type Exec, type IdentityListRow } from '../db/queries.js';
import { CLIENT_SCOPE } from '../domain/access.js';
import type { IsoDate } from '../domain/dates.js';
import { identityStatusText, type IdvStatus } from '../domain/identity-verification.js';
import type { DeadlinesDeps } from './deps.js';

/** A stored row's status on `today` (verified_on and due_on were worked out by the rules at the last refresh). */
export function statusOfRow(
  r: Pick<IdentityListRow, 'verified_on' | 'verified_by' | 'due_on' | 'due_source' | 'due_rule'>,
  today: IsoDate,
): IdvStatus {
  if (r.verified_on) return { status: 'verified', verifiedOn: r.verified_on, by: r.verified_by };
  if (!r.due_on) return { status: 'unknown' };
  return {
    status: r.due_on < today ? 'overdue' : 'due',
    dueOn: r.due_on,
    source: r.due_source === 'rule' ? 'rule' : 'companies_house',
    rule: r.due_rule ?? null,
  };
}

export function toIdentityPerson(r: IdentityListRow, today: IsoDate): IdentityPerson {
  const s = statusOfRow(r, today);
  return {
    client_id: r.client_id,
    client_name: r.company_name,
    assigned_accountant_id: r.assigned_accountant_id,
    person_key: r.person_key,
    name: r.name,
    person_kind: r.person_kind,
    status: s.status,
    verified_on: r.verified_on,
    verified_by: r.verified_by,
    verified_source: r.verified_source,
    due_on: r.due_on,
    due_source: r.due_source,
    status_text: identityStatusText(s),
  };
}

/** The "Identity verification" view: every person across the clients the principal may see. */
export async function findIdentityPeople(deps: DeadlinesDeps, principal: Principal, q: IdentityListQuery): Promise<IdentityList> {
  const today = deps.today();
  const { rows, total, totalCapped } = await listIdentityPeople(
    deps.db,
    clientScopeOf(principal, CLIENT_SCOPE),
    { filter: q.filter ?? 'not_verified', assigneeId: q.assignee_id, clientId: q.client_id, page: q.page, pageSize: q.page_size },
    today,
  );
  return {
    people: rows.map((r) => toIdentityPerson(r, today)),
    total,
    total_capped: totalCapped,
    page: q.page,
    page_size: q.page_size,
    today,
  };
}

/** Open confirmation statements of clients with people not verified say so: "blocked: 2 people not verified". */
export async function withBlocked(db: Exec, list: Deadline[]): Promise<Deadline[]> {
  const ids = [...new Set(list.filter((d) => d.kind === 'confirmation_statement' && d.status !== 'done').map((d) => d.client_id))];
  const counts = await unverifiedCounts(db, ids);
  return list.map((d) => {
    const n = d.kind === 'confirmation_statement' && d.status !== 'done' ? (counts.get(d.client_id) ?? 0) : 0;
    return n > 0 ? { ...d, blocked: blockedText(n) } : d;
  });
}

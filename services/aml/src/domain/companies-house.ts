import type { CompanyOfficer, CompanyPsc, OwnershipBand, PersonRole } from '@countinghouse/proto';

/** A person Companies House lists for the company, as the AML file keeps them. */
export interface ChPerson {
  /** Stable across refreshes: role kind and name as Companies House writes it. */
  key: string;
  name: string;
  role: PersonRole;
  ownershipBand: OwnershipBand;
  ceasedOn: string | null;
}

const OFFICER_ROLES: Record<string, PersonRole> = {
  director: 'director',
  'corporate-director': 'director',
  'nominee-director': 'director',
  secretary: 'secretary',
  'corporate-secretary': 'secretary',
  'llp-member': 'llp_member',
  'llp-designated-member': 'llp_member',
  'corporate-llp-member': 'llp_member',
  'corporate-llp-designated-member': 'llp_member',
};

/**
 * The ownership band from a PSC's natures of control (Companies House codes such as
 * ownership-of-shares-25-to-50-percent); the highest of shares and voting rights.
 */
export function ownershipBandOf(natures: readonly string[]): OwnershipBand {
  const bands: OwnershipBand[] = natures.map((n) =>
    /75-to-100-percent/.test(n) ? '75_or_more' : /50-to-75-percent/.test(n) ? '50_to_75' : /25-to-50-percent/.test(n) ? '25_to_50' : 'none',
  );
  const order: OwnershipBand[] = ['75_or_more', '50_to_75', '25_to_50'];
  return order.find((b) => bands.includes(b)) ?? 'none';
}

/** The people to verify for a company: its officers that are directors, secretaries or LLP members, and its PSCs. */
export function chPeople(officers: readonly CompanyOfficer[], pscs: readonly CompanyPsc[]): ChPerson[] {
  const out: ChPerson[] = [];
  for (const o of officers) {
    const role = OFFICER_ROLES[o.officer_role];
    if (!role || !o.name) continue;
    out.push({ key: `officer:${o.officer_role}:${o.name}`, name: o.name, role, ownershipBand: 'none', ceasedOn: o.resigned_on });
  }
  for (const p of pscs) {
    if (!p.name || /statement/.test(p.kind)) continue;
    out.push({
      key: `psc:${p.name}`,
      name: p.name,
      role: 'psc',
      ownershipBand: ownershipBandOf(p.natures_of_control),
      ceasedOn: p.ceased_on,
    });
  }
  return out;
}

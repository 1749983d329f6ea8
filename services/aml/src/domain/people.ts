import type { PersonInput } from '@countinghouse/proto';
import type { StoredPerson } from '../db/schema.js';
import type { ChPerson } from './companies-house.js';

export interface Merge {
  people: StoredPerson[];
  added: string[];
  ceased: string[];
}

/**
 * Bring a file's people in line with Companies House: a new officer or PSC is added (to verify), one who
 * resigned or ceased is marked so (kept: the record of who was verified stays). Hand-entered people and
 * what the practice typed about a listed person (date of birth, address, evidence) are kept.
 */
export function mergeChPeople(people: readonly StoredPerson[], ch: readonly ChPerson[], newId: () => string): Merge {
  const out = people.map((p) => ({ ...p }));
  const added: string[] = [];
  const ceased: string[] = [];
  for (const c of ch) {
    const existing = out.find((p) => p.ch_key === c.key);
    if (!existing) {
      if (c.ceasedOn) continue;
      out.push({
        id: newId(),
        name: c.name,
        date_of_birth: null,
        address: '',
        role: c.role,
        ownership_band: c.ownershipBand,
        source: 'companies_house',
        ch_key: c.key,
        ceased_on: null,
        evidence: [],
      });
      added.push(c.name);
      continue;
    }
    if (existing.ceased_on !== c.ceasedOn) {
      existing.ceased_on = c.ceasedOn;
      if (c.ceasedOn) ceased.push(c.name);
    }
    if (existing.ownership_band !== c.ownershipBand && existing.role === 'psc') existing.ownership_band = c.ownershipBand;
  }
  return { people: out, added, ceased };
}

export function applyPersonInput(p: StoredPerson, input: PersonInput): StoredPerson {
  return { ...p, ...input, name: input.name.trim(), address: input.address.trim() };
}

/** Why a version cannot yet go for approval (null when it can): people, evidence for each, risk answered. */
export function submitBlocker(
  people: readonly StoredPerson[],
  hasRisk: boolean,
): { kind: 'people' } | { kind: 'evidence'; name: string } | { kind: 'risk' } | null {
  const current = people.filter((p) => !p.ceased_on);
  if (current.length === 0) return { kind: 'people' };
  const missing = current.find((p) => p.evidence.length === 0);
  if (missing) return { kind: 'evidence', name: missing.name };
  if (!hasRisk) return { kind: 'risk' };
  return null;
}

import type { LeadStage } from '@countinghouse/proto';

export type StageDecision = { ok: true } | { ok: false; code: 'CONFLICT'; message: string };

export const LEAD_MESSAGES = {
  notFound: 'Lead not found',
  duplicateEmail: 'A lead with this e-mail address already exists.',
  convertedStaysWon: 'This lead has been converted into a client and stays won.',
  onlyWonConverts: 'Only a won lead can be converted into a client.',
  alreadyConverted: 'This lead has already been converted into a client.',
} as const;

/**
 * A lead may move from any stage to any other (the spec shows no transitions, and sales staff correct
 * mistakes), except that a lead already converted into a client stays won.
 */
export function decideStageChange(lead: { stage: LeadStage; convertedClientId: string | null }, to: LeadStage): StageDecision {
  if (lead.convertedClientId && to !== 'won') return { ok: false, code: 'CONFLICT', message: LEAD_MESSAGES.convertedStaysWon };
  return { ok: true };
}

/** Only a won lead converts, and only once. */
export function decideConversion(lead: { stage: LeadStage; convertedClientId: string | null }): StageDecision {
  if (lead.convertedClientId) return { ok: false, code: 'CONFLICT', message: LEAD_MESSAGES.alreadyConverted };
  if (lead.stage !== 'won') return { ok: false, code: 'CONFLICT', message: LEAD_MESSAGES.onlyWonConverts };
  return { ok: true };
}

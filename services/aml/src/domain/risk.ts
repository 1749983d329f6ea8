import type { DueDiligenceLevel, RiskAnswers, RiskAssessment, RiskLevel } from '@countinghouse/proto';

/**
 * The practice's risk scoring (MLR 2017 reg. 18 asks each practice to assess its own risks; these
 * weights are its policy, recorded in docs/decisions.md).
 *
 * Some answers make a client high risk on their own:
 * - a politically exposed person, or a family member or known close associate of one: reg. 35 requires
 *   enhanced due diligence (reg. 33(1)(d));
 * - a business established in a high-risk third country: reg. 33(1)(b) requires enhanced due diligence;
 * - a cash-intensive business: the practice's policy (HM Treasury's National Risk Assessment names cash
 *   as a high-risk factor; reg. 33(6)(b)(ii) lists "cash-intensive" among the factors).
 * The others add points: 0 is low, 1 or 2 medium, 3 or more high.
 */
const POINTS: Array<{ test: (a: RiskAnswers) => boolean; points: number; reason: string }> = [
  { test: (a) => a.sector === 'elevated', points: 1, reason: 'Elevated-risk sector' },
  { test: (a) => a.sector === 'high', points: 3, reason: 'High-risk sector' },
  { test: (a) => a.jurisdiction === 'abroad', points: 1, reason: 'Business or owners outside the UK' },
  { test: (a) => a.complex_structure, points: 2, reason: 'Complex or unusual ownership structure' },
  { test: (a) => a.non_face_to_face, points: 1, reason: 'Not met face to face (reg. 33(6)(c)(i))' },
  { test: (a) => a.source_of_funds === 'unclear', points: 2, reason: 'Source of funds unclear' },
];

const DECISIVE: Array<{ test: (a: RiskAnswers) => boolean; reason: string }> = [
  { test: (a) => a.pep, reason: 'Politically exposed person (reg. 35: enhanced due diligence)' },
  { test: (a) => a.jurisdiction === 'high_risk_third_country', reason: 'High-risk third country (reg. 33(1)(b))' },
  { test: (a) => a.cash_intensive, reason: 'Cash-intensive business' },
];

/** Due diligence per risk: simplified (reg. 37) for low, standard customer due diligence (reg. 28), enhanced (reg. 33). */
export const DUE_DILIGENCE: Record<RiskLevel, DueDiligenceLevel> = { low: 'simplified', medium: 'standard', high: 'enhanced' };
/** Years until the next review (reg. 27(8): ongoing monitoring, more often the higher the risk). */
export const REVIEW_YEARS: Record<RiskLevel, number> = { low: 3, medium: 2, high: 1 };

export function assessRisk(a: RiskAnswers): RiskAssessment {
  const decisive = DECISIVE.filter((d) => d.test(a)).map((d) => d.reason);
  const scored = POINTS.filter((p) => p.test(a));
  const points = scored.reduce((n, p) => n + p.points, 0);
  const level: RiskLevel = decisive.length > 0 || points >= 3 ? 'high' : points > 0 ? 'medium' : 'low';
  return {
    level,
    due_diligence: DUE_DILIGENCE[level],
    review_years: REVIEW_YEARS[level],
    reasons: [...decisive, ...scored.map((p) => p.reason)],
  };
}

import {
  RETENTION_MESSAGES,
  RETENTION_MINIMUMS,
  RETENTION_RECORD_TYPES,
  enGbDate,
  type RetentionRecordType,
  type RetentionTrigger,
} from '@countinghouse/proto';

export interface Rule {
  recordType: RetentionRecordType;
  years: number;
  trigger: RetentionTrigger;
}

export interface ClientState {
  clientId: string;
  companyName: string | null;
  relationshipEndedOn: string | null;
  legalHold: boolean;
}

export interface Decision {
  clientId: string;
  companyName: string | null;
  recordType: RetentionRecordType;
  /** null: every record of the type (relationship end); a day: records dated before it. */
  recordedBefore: string | null;
  reason: string;
}

/**
 * The same day `years` later; 29 Feb becomes 28 Feb in a common year (the period "beginning with" the day
 * ends the day before that anniversary, so the record may go on it: MLR 2017 reg. 40(3)).
 */
export function addYears(day: string, years: number): string {
  const [y = NaN, m = NaN, d = NaN] = day.split('-').map(Number);
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${String(y + years).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The schedule in force: the practice's rule where it set one, else the legal minimum. */
export function effectiveRules(stored: ReadonlyArray<Rule>): Rule[] {
  return RETENTION_RECORD_TYPES.map((t) => {
    const s = stored.find((r) => r.recordType === t);
    const min = RETENTION_MINIMUMS[t];
    return s ?? { recordType: t, years: min.years, trigger: min.trigger };
  });
}

/**
 * May an administrator set this rule? Never shorter than the law's period, and never from an earlier
 * trigger: the record's date comes before the end of the relationship, so a minimum counted from the
 * relationship's end cannot be counted from the record's date. Returns the refusal, or null.
 */
export function ruleProblem(recordType: RetentionRecordType, years: number, trigger: RetentionTrigger): string | null {
  const min = RETENTION_MINIMUMS[recordType];
  if (years < min.years) return RETENTION_MESSAGES.belowMinimum(min.label, min.years);
  if (min.trigger === 'relationship_end' && trigger === 'record_date') return RETENTION_MESSAGES.earlierTrigger(min.label);
  return null;
}

/**
 * What has expired on `today` (London): per client and record type. A client under a legal hold keeps
 * everything; a relationship that has not ended keeps what runs from its end; what runs from the record's
 * date is erased record by record, dated before today less the period.
 */
export function decideExpired(rules: ReadonlyArray<Rule>, clients: ReadonlyArray<ClientState>, today: string): Decision[] {
  const out: Decision[] = [];
  for (const c of clients) {
    if (c.legalHold) continue;
    for (const r of rules) {
      if (r.trigger === 'relationship_end') {
        if (!c.relationshipEndedOn) continue;
        const from = addYears(c.relationshipEndedOn, r.years);
        if (today < from) continue;
        out.push({
          clientId: c.clientId,
          companyName: c.companyName,
          recordType: r.recordType,
          recordedBefore: null,
          reason: `Relationship ended ${enGbDate(c.relationshipEndedOn)}; kept ${r.years} years, until ${enGbDate(from)}`,
        });
      } else {
        const before = addYears(today, -r.years);
        out.push({
          clientId: c.clientId,
          companyName: c.companyName,
          recordType: r.recordType,
          recordedBefore: before,
          reason: `Records dated before ${enGbDate(before)}: kept ${r.years} years from their date`,
        });
      }
    }
  }
  return out;
}

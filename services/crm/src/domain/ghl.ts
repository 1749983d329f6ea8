import { GHL_SOURCE, type GhlContact } from '@countinghouse/proto';

export interface ImportedLead {
  externalId: string;
  name: string;
  email: string | null;
  phone: string | null;
  companyName: string | null;
  tags: string[];
  source: string;
  createdAt: Date | null;
}

function clean(v: string | null | undefined): string | null {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
}

/** A GoHighLevel contact as a lead: name from contactName, else first + last, else e-mail, else phone. */
export function contactToLead(c: GhlContact): ImportedLead {
  const first = clean(c.firstName);
  const last = clean(c.lastName);
  const email = clean(c.email)?.toLowerCase() ?? null;
  const phone = clean(c.phone);
  const name = clean(c.contactName) ?? (clean([first, last].filter(Boolean).join(' ')) || email || phone || 'Unnamed contact');
  const added = c.dateAdded ? new Date(c.dateAdded) : null;
  return {
    externalId: c.id,
    name,
    email,
    phone,
    companyName: clean(c.companyName),
    tags: (c.tags ?? []).map((t) => t.trim()).filter(Boolean),
    source: GHL_SOURCE,
    createdAt: added && !Number.isNaN(added.getTime()) ? added : null,
  };
}

/** Milliseconds to wait before retry `attempt` (1-based): Retry-After when given, else 0.5 s doubling, capped. */
export function retryDelayMs(attempt: number, retryAfter: string | null, capMs = 10_000): number {
  if (retryAfter) {
    const secs = Number(retryAfter);
    if (Number.isFinite(secs) && secs >= 0) return Math.min(secs * 1000, capMs);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.min(Math.max(0, at - Date.now()), capMs);
  }
  return Math.min(500 * 2 ** (attempt - 1), capMs);
}

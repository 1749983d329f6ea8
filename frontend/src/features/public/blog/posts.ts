import { post as limitedCompanyYearEnd } from './limited-company-year-end';
import { post as makingTaxDigital } from './making-tax-digital-sole-traders';
import type { BlogPost } from './types';
import { post as vatRegistration } from './vat-registration';

/** Every post, newest first. Add a file beside this one and list it here. */
export const POSTS: readonly BlogPost[] = [makingTaxDigital, limitedCompanyYearEnd, vatRegistration].sort((a, b) =>
  b.date.localeCompare(a.date),
);

export function findPost(slug: string | undefined): BlogPost | null {
  return POSTS.find((p) => p.slug === slug) ?? null;
}

export type { BlogPost };

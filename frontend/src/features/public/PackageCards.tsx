import { formatGBP, PACKAGE_CATALOGUE, type PackageInfo } from '@countinghouse/proto';

// (proto's VAT_MESSAGES.plusVat, written here: its module carries schemas, which would put TypeBox on the
// home page past its 150 kB budget, tests/e2e/public-budget.test.ts)
const PLUS_VAT = '+ VAT';
import { useVatRate } from './api';
import { Link } from 'react-router-dom';

/** Where choosing a package leads: the checkout, which sends a visitor through sign-up first. */
function checkoutPath(packageName: string): string {
  return `/checkout?package=${encodeURIComponent(packageName)}`;
}

function PackageCard({ pkg, headingLevel, vatRate }: { pkg: PackageInfo; headingLevel: 'h2' | 'h3'; vatRate: number }) {
  const Heading = headingLevel;
  const id = `package-${pkg.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <article className={`pub-package${pkg.isFeatured ? ' pub-package--featured' : ''}`} aria-labelledby={id}>
      {pkg.isFeatured && <p className="pub-package__badge">Most chosen</p>}
      <Heading id={id} className="pub-package__name">
        {pkg.name}
      </Heading>
      <p className="pub-package__price">
        <span className="pub-package__amount">{formatGBP(pkg.monthlyFee)}</span> <span className="pub-package__per">per month</span>
        {vatRate > 0 && <span className="pub-package__vat"> {PLUS_VAT}</span>}
      </p>
      <p className="pub-package__summary">{pkg.summary}</p>
      <ul className="pub-package__features">
        {pkg.features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <Link to={checkoutPath(pkg.name)} className={`pub-button${pkg.isFeatured ? '' : ' pub-button--outline'}`} aria-describedby={id}>
        Choose {pkg.name}
      </Link>
    </article>
  );
}

/** The seven packages with monthly price and features (spec section 9 fees). */
export function PackageCards({ only, headingLevel = 'h2' }: { only?: readonly string[]; headingLevel?: 'h2' | 'h3' }) {
  const list = only ? PACKAGE_CATALOGUE.filter((p) => only.includes(p.name)) : PACKAGE_CATALOGUE;
  const vatRate = useVatRate();
  return (
    <div className="pub-packages">
      {list.map((p) => (
        <PackageCard key={p.name} pkg={p} headingLevel={headingLevel} vatRate={vatRate} />
      ))}
    </div>
  );
}

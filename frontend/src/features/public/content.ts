// The public site's copy, in our own words.

export const AUDIENCES = [
  {
    id: 'sole-traders',
    title: 'Sole traders',
    short: 'Self-employed and freelancing? We file your Self Assessment and get you ready for Making Tax Digital.',
    long: 'You run the business and keep the profit; we make sure HMRC gets the right figures at the right time. We set up simple bookkeeping software, check it every quarter and tell you what to put aside for tax, so the January bill is never a surprise.',
    needs: [
      'Self Assessment tax return and payments on account',
      'Making Tax Digital for Income Tax quarterly updates',
      'Allowable expenses, mileage and use-of-home claims',
      'Class 2 and Class 4 National Insurance',
    ],
    packages: ['Sole Trader Package'],
  },
  {
    id: 'partnerships',
    title: 'Partnerships',
    short: 'Two or more of you in business together? We file the partnership return and every partner’s own return.',
    long: 'A partnership files its own return and each partner reports their share of the profit. We prepare both, agree the profit split with you, and keep each partner’s figures consistent so nobody gets a letter from HMRC.',
    needs: [
      'Partnership tax return (SA800)',
      'Partners’ Self Assessment returns',
      'Profit share statements',
      'VAT if the partnership is registered',
    ],
    packages: ['Partnership Package', 'Growth'],
  },
  {
    id: 'limited-companies',
    title: 'Limited companies',
    short: 'From a one-person company to a team of fifty: accounts, Corporation Tax, VAT and payroll.',
    long: 'A limited company has more to file and more ways to be tax-efficient. We prepare your statutory accounts and Corporation Tax return, run payroll and VAT, and help directors take money out of the company in the right mix of salary and dividends.',
    needs: [
      'Annual accounts for Companies House',
      'Corporation Tax return (CT600)',
      'VAT returns under Making Tax Digital',
      'Payroll, pensions auto-enrolment and P11Ds',
      'Confirmation statement and registered office',
    ],
    packages: ['Limited Company Starter', 'Growth', 'Scale', 'Professional', 'Enterprise'],
  },
] as const;

export const STEPS = [
  { title: 'Choose a package', text: 'Pick the package that fits your business. Every price is fixed and monthly.' },
  { title: 'Create your account and pay', text: 'Sign up in a minute and pay securely by card. No setup fee.' },
  { title: 'Meet your accountant', text: 'A named accountant is assigned within 24 hours and gets in touch.' },
  { title: 'Send us your records', text: 'Upload documents and connect Xero or QuickBooks from your dashboard.' },
] as const;

export const VALUES = [
  { title: 'A named accountant', text: 'The same person looks after your business all year, and answers your e-mails.' },
  { title: 'Fixed monthly fees', text: 'You know what you pay. No hourly rates, no surprise invoices.' },
  { title: 'Never miss a deadline', text: 'We track every filing date for you and remind you in good time.' },
  { title: 'Works with your software', text: 'Connect Xero or QuickBooks, or let us set up simple bookkeeping for you.' },
] as const;

export const SERVICES = [
  { title: 'Bookkeeping', text: 'Your transactions categorised and reconciled, monthly or quarterly, in cloud software you can see.' },
  { title: 'VAT returns', text: 'Quarterly VAT returns filed under Making Tax Digital, and advice on the scheme that suits you.' },
  { title: 'Payroll', text: 'Payslips, RTI submissions to HMRC, pensions auto-enrolment and year-end P60s.' },
  {
    title: 'Year-end accounts',
    text: 'Statutory accounts for Companies House, prepared from your records and explained in plain English.',
  },
  { title: 'Corporation Tax', text: 'Your CT600 return prepared and filed, with the reliefs and allowances your company is due.' },
  { title: 'Self Assessment', text: 'Personal tax returns for sole traders, partners and directors, filed well before 31 January.' },
  { title: 'CIS returns', text: 'Monthly Construction Industry Scheme returns for contractors and refunds for subcontractors.' },
  { title: 'Advice and planning', text: 'Management accounts, cash-flow forecasts and tax planning meetings on the larger packages.' },
] as const;

export const RESOURCES = [
  {
    title: 'Key tax dates',
    items: [
      '31 January: Self Assessment return and balancing payment',
      '31 July: second payment on account',
      '5 April: end of the tax year',
      'Nine months and one day after your year end: Corporation Tax payment',
    ],
  },
  {
    title: 'Getting started',
    items: [
      'Registering as self-employed with HMRC',
      'Setting up a limited company at Companies House',
      'Opening a separate business bank account',
      'Choosing bookkeeping software',
    ],
  },
  {
    title: 'Working with us',
    items: [
      'Uploading documents securely from your dashboard',
      'Connecting Xero or QuickBooks',
      'What to send us at your year end',
      'Changing your package as you grow',
    ],
  },
] as const;

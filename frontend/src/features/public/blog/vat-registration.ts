import type { BlogPost } from './types';

export const post: BlogPost = {
  slug: 'when-should-you-register-for-vat',
  title: 'When should you register for VAT?',
  date: '2025-11-10',
  author: 'The Countinghouse team',
  summary: 'You must register once your taxable turnover passes the threshold, but registering early can make sense too. How to decide.',
  body: `
You have to register for VAT when your VAT-taxable turnover over the last twelve months goes above the registration threshold (£90,000 at the time of writing), or when you expect it to go over in the next thirty days alone.

## Watch the rolling twelve months

The test is not your financial year. It is any rolling twelve-month period, so check your turnover every month as you grow. Registering late means paying the VAT you should have charged, out of your own pocket.

## Registering voluntarily

You can register before you reach the threshold. It can make sense when:

- most of your customers are VAT-registered businesses who can reclaim the VAT you charge;
- you buy a lot of equipment or stock and want to reclaim the VAT on it;
- you want to look established to larger customers.

It rarely makes sense when you sell mainly to the public, because your prices go up or your margin goes down.

## Which scheme

Standard accounting, cash accounting and the Flat Rate Scheme each suit different businesses. We look at your figures and tell you which one leaves you better off. Quarterly VAT returns are included from the Growth package upwards.
`,
};

import type { BlogPost } from './types';

export const post: BlogPost = {
  slug: 'making-tax-digital-for-sole-traders',
  title: 'Making Tax Digital for Income Tax: what sole traders need to do',
  date: '2026-03-02',
  author: 'The Countinghouse team',
  summary:
    'Quarterly updates are coming for self-employed people and landlords. Here is what changes, who it affects first, and how to get ready without stress.',
  body: `
Making Tax Digital for Income Tax (MTD for ITSA) changes how self-employed people and landlords report their income to HMRC. Instead of one Self Assessment return a year, you keep digital records and send a short update every quarter, then confirm the year at the end.

## Who it affects, and when

MTD for Income Tax starts with people whose qualifying income from self-employment and property is above £50,000. The threshold then falls to £30,000 and later to £20,000. Qualifying income is your turnover before expenses, not your profit, so check the right number.

## What you need

- Software that works with Making Tax Digital. We set this up for you and connect it to your bank feed.
- Digital records of your income and expenses, kept as you go rather than at the end of the year.
- Four quarterly updates and a final declaration each tax year.

## How we help

On the Sole Trader Package we set up your software, check your records every quarter, and send your updates for you. You keep snapping receipts; we make sure HMRC gets what it needs, on time.

If you are not sure whether you are in scope yet, call us and we will look at your figures with you.
`,
};

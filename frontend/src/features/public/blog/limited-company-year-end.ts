import type { BlogPost } from './types';

export const post: BlogPost = {
  slug: 'your-limited-company-year-end-checklist',
  title: 'Your limited company year-end checklist',
  date: '2026-01-19',
  author: 'The Countinghouse team',
  summary:
    'Accounts, Corporation Tax and the confirmation statement each have their own deadline. A plain-English list of what is due and when.',
  body: `
Running a limited company means a few fixed filings every year. None of them is hard on its own, but the deadlines are spread out and the penalties for missing them start straight away.

## The three filings

- **Annual accounts** go to Companies House within nine months of your company's year end.
- **The Corporation Tax return (CT600)** goes to HMRC within twelve months of the year end, but the tax itself is due nine months and one day after it.
- **The confirmation statement** is due at least once every twelve months, whether or not anything changed.

## What to send us

- Your bank statements for the year, or access to your bank feed.
- Sales and purchase invoices, if they are not already in your software.
- Details of anything the company bought that will last, such as a van or a laptop.
- Any loans between you and the company.

## Pay yourself tax-efficiently

The year end is a good time to look at how you take money out of the company. A mix of salary and dividends often costs less tax than salary alone, but the right answer depends on your other income. Your accountant will go through it with you before the year closes, not after.
`,
};

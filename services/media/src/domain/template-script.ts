import { videoTypeInfo, type Scene, type VideoScript, type VideoType } from '@countinghouse/proto';
import { cheapestFee, type PracticeFacts } from './facts.js';

type Beat = { seconds: number; narration: string; on_screen_text: string; visual: string };

const listJoin = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

function overview(f: PracticeFacts): Beat[] {
  const from = cheapestFee(f);
  const top = f.packages.at(-1)!;
  return [
    {
      seconds: 8,
      narration: `Running a small business is hard enough without chasing the numbers. ${f.name} looks after them for you.`,
      on_screen_text: f.name,
      visual: 'Logo reveal over a small-business owner busy at work',
    },
    {
      seconds: 12,
      narration: `We are an online accountancy practice for ${listJoin(f.audiences)} right across the UK.`,
      on_screen_text: 'Sole traders · Partnerships · Limited companies',
      visual: 'Three quick cuts: a tradesperson, two partners in a shop, a small office team',
    },
    {
      seconds: 16,
      narration: `We take care of ${listJoin(f.services.slice(0, 5))}, with ${listJoin(f.services.slice(5).map((s) => s.toLowerCase()))} whenever you need them.`,
      on_screen_text: f.services.slice(0, 5).join(' · '),
      visual: 'Service icons appear one by one beside a tidy set of accounts',
    },
    {
      seconds: 16,
      narration: `Fixed monthly packages start at £${from} a month, and grow with you up to the ${top.name} package at £${top.monthlyFee}. No surprises, no hourly bills.`,
      on_screen_text: `Packages from £${from} a month`,
      visual: 'The package cards from the website, with the monthly fees highlighted',
    },
    {
      seconds: 12,
      narration: `Choose a package and sign up online, and a personal accountant is assigned within 24 hours. Upload documents and connect Xero or QuickBooks from your dashboard.`,
      on_screen_text: 'Your own accountant within 24 hours',
      visual: 'The client dashboard on a laptop, then a friendly accountant on a video call',
    },
    {
      seconds: 11,
      narration: `Call us on ${f.phone}, e-mail ${f.email}, or choose your package online today.`,
      on_screen_text: `${f.phone} · ${f.email}`,
      visual: 'Logo with contact details on the closing card',
    },
  ];
}

function demo(f: PracticeFacts): Beat[] {
  const from = cheapestFee(f);
  return [
    {
      seconds: 10,
      narration: `Here is a quick tour of the ${f.name} website, from choosing a package to working with your accountant.`,
      on_screen_text: `${f.name}: website tour`,
      visual: 'Screen recording: the home page, cursor resting on the main menu',
    },
    {
      seconds: 15,
      narration: `Start on the package selection page. Packages for ${listJoin(f.audiences)} start at £${from} a month, and every fee is shown up front.`,
      on_screen_text: `Packages from £${from} a month`,
      visual: 'Screen recording: scroll through the package cards, hover over each monthly fee',
    },
    {
      seconds: 15,
      narration: 'Pick the package that fits, create your account and pay the monthly subscription securely by card.',
      on_screen_text: 'Sign up and pay securely',
      visual: 'Screen recording: click Choose on a package, fill in the sign-up form, the card payment page',
    },
    {
      seconds: 15,
      narration: 'Once payment is confirmed you land on your client dashboard, and a personal accountant is assigned within 24 hours.',
      on_screen_text: 'Your accountant within 24 hours',
      visual: 'Screen recording: the payment confirmation, then the client dashboard',
    },
    {
      seconds: 17,
      narration: `Upload your documents by type, such as ${listJoin(f.services.slice(0, 3))}. PDFs, photos and spreadsheets up to 10 MB each are all fine.`,
      on_screen_text: 'Upload documents in seconds',
      visual: 'Screen recording: choose a document type, drag three files in, the upload confirmation',
    },
    {
      seconds: 16,
      narration: 'Connect Xero or QuickBooks from the integrations page, and your bookkeeping data syncs straight to your accountant.',
      on_screen_text: 'Connect Xero or QuickBooks',
      visual: 'Screen recording: the integrations page, click Connect, the connected state',
    },
    {
      seconds: 17,
      narration: `That is all it takes. Questions first? Call ${f.phone} or e-mail ${f.email}, or choose your package online today.`,
      on_screen_text: `${f.phone} · ${f.email}`,
      visual: 'Back to the home page, then a closing card with the logo and contact details',
    },
  ];
}

function custom(f: PracticeFacts, description: string): Beat[] {
  const oneLine = description.replace(/\s+/g, ' ').trim();
  const short = oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine;
  const from = cheapestFee(f);
  return [
    {
      seconds: 10,
      narration: `At ${f.name}, we help ${listJoin(f.audiences)} across the UK keep their accounts in order.`,
      on_screen_text: short,
      visual: `Opening shot that sets up the theme: ${oneLine.slice(0, 300)}`,
    },
    {
      seconds: 14,
      narration: `We handle ${listJoin(f.services.slice(0, 5))}, so you can get on with running your business.`,
      on_screen_text: f.services.slice(0, 3).join(' · '),
      visual: 'Service icons over footage that follows the theme above',
    },
    {
      seconds: 14,
      narration: `Fixed monthly packages start at £${from} a month, and a personal accountant is assigned within 24 hours of signing up.`,
      on_screen_text: `From £${from} a month`,
      visual: 'The package cards from the website',
    },
    {
      seconds: 10,
      narration: 'Upload documents and connect Xero or QuickBooks from your client dashboard.',
      on_screen_text: 'Everything in one dashboard',
      visual: 'The client dashboard on a laptop',
    },
    {
      seconds: 12,
      narration: `Call ${f.phone} or e-mail ${f.email} to get started.`,
      on_screen_text: `${f.phone} · ${f.email}`,
      visual: 'Closing card with the logo and contact details',
    },
  ];
}

/**
 * The built-in template generator: a deterministic script from the practice's facts, with scene
 * timings that fit the type's range. Used when no AI provider is configured.
 */
export function templateScript(f: PracticeFacts, type: VideoType, customPrompt: string | null): VideoScript {
  const beats = type === 'company_overview' ? overview(f) : type === 'website_demo' ? demo(f) : custom(f, customPrompt ?? '');
  const scenes: Scene[] = [];
  let t = 0;
  for (const b of beats) {
    scenes.push({ start_second: t, end_second: t + b.seconds, narration: b.narration, on_screen_text: b.on_screen_text, visual: b.visual });
    t += b.seconds;
  }
  const info = videoTypeInfo(type);
  if (t < info.minSeconds || t > info.maxSeconds) throw new Error(`template ${type} lasts ${t}s, outside ${info.length}`);
  const title =
    type === 'custom'
      ? `${f.name}: ${truncate((customPrompt ?? '').replace(/\s+/g, ' ').trim(), 80) || 'Custom Video'}`
      : `${f.name}: ${info.label}`;
  return { title: truncate(title, 200), total_seconds: t, scenes };
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 3)}...` : s;
}

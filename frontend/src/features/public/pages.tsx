import { formatDate } from '@countinghouse/proto';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { usePageTitle } from '../../shared/use-page-title';
import { usePublicConfig } from './api';
import { Markdown } from './blog/Markdown';
import { findPost, POSTS } from './blog/posts';
import { AUDIENCES, RESOURCES, SERVICES, STEPS, VALUES } from './content';
import { PackageCards } from './PackageCards';
import './public.css';

// The public marketing site: plain semantic HTML and CSS (no antd), so these pages load fast.

function Section({ title, intro, children, soft = false }: { title: string; intro?: string; children: ReactNode; soft?: boolean }) {
  return (
    <section className={`pub-section${soft ? ' pub-section--soft' : ''}`}>
      <div className="pub-container">
        <h2 className="pub-section__title">{title}</h2>
        {intro && <p className="pub-section__intro">{intro}</p>}
        {children}
      </div>
    </section>
  );
}

function PageHero({ title, lead, children }: { title: string; lead: string; children?: ReactNode }) {
  return (
    <section className="pub-hero pub-hero--page">
      <div className="pub-container">
        <h1 className="pub-hero__title">{title}</h1>
        <p className="pub-hero__lead">{lead}</p>
        {children}
      </div>
    </section>
  );
}

function ContactLine() {
  const { practice } = usePublicConfig();
  if (!practice) return null;
  return (
    <p className="pub-contact">
      Call <a href={`tel:${practice.phone.replace(/\s+/g, '')}`}>{practice.phone}</a> or e-mail{' '}
      <a href={`mailto:${practice.email}`}>{practice.email}</a>.
    </p>
  );
}

export function HomePage() {
  usePageTitle('Home');
  return (
    <>
      <section className="pub-hero">
        <div className="pub-container">
          <p className="pub-hero__eyebrow">Online accountants for UK small businesses</p>
          <h1 className="pub-hero__title">Your books, your tax, your accountant. One fixed monthly fee.</h1>
          <p className="pub-hero__lead">
            We look after sole traders, partnerships and limited companies across the UK: bookkeeping, VAT, payroll, year-end accounts and
            tax returns, with a named accountant who knows your business.
          </p>
          <div className="pub-actions">
            <Link to="/package-selection" className="pub-button">
              See packages and prices
            </Link>
            <Link to="/who-we-help" className="pub-button pub-button--outline">
              Who we help
            </Link>
          </div>
          <p className="pub-hero__note">From £40 a month. No setup fee. Cancel any time.</p>
        </div>
      </section>

      <Section
        title="Who we help"
        intro="Three kinds of business, each with a package built around what HMRC and Companies House expect of it."
      >
        <div className="pub-grid">
          {AUDIENCES.map((a) => (
            <article key={a.id} className="pub-card">
              <h3>{a.title}</h3>
              <p>{a.short}</p>
              <Link to={`/who-we-help#${a.id}`}>
                More for {a.title.toLowerCase()}
                <span className="pub-visually-hidden"> on the who we help page</span>
              </Link>
            </article>
          ))}
        </div>
      </Section>

      <Section title="How it works" soft>
        <ol className="pub-steps">
          {STEPS.map((s) => (
            <li key={s.title}>
              <h3>{s.title}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section
        title="Popular packages"
        intro="Prices are per month. Every package includes a named accountant and unlimited e-mail questions."
      >
        <PackageCards only={['Sole Trader Package', 'Growth', 'Scale']} headingLevel="h3" />
        <p className="pub-more">
          <Link to="/package-selection">Compare all seven packages</Link>
        </p>
      </Section>

      <Section title="Why businesses choose us" soft>
        <ul className="pub-grid pub-list-plain">
          {VALUES.map((v) => (
            <li key={v.title} className="pub-card">
              <h3>{v.title}</h3>
              <p>{v.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Questions first?">
        <ContactLine />
      </Section>
    </>
  );
}

export function PackageSelectionPage() {
  usePageTitle('Packages');
  return (
    <>
      <PageHero
        title="Choose your package"
        lead="Seven packages, one fixed monthly price each. Choose one, create your account and pay securely; your accountant is assigned within 24 hours."
      />
      <section className="pub-section">
        <div className="pub-container">
          <PackageCards />
          <p className="pub-more">
            Not sure which one fits? <Link to="/who-we-help">See who each package is for</Link>, or talk to us.
          </p>
          <ContactLine />
        </div>
      </section>
    </>
  );
}

export function WhoWeHelpPage() {
  usePageTitle('Who we help');
  return (
    <>
      <PageHero title="Who we help" lead="Sole traders, partnerships and limited companies, from the first invoice to a team of fifty." />
      {AUDIENCES.map((a, i) => (
        <section key={a.id} id={a.id} className={`pub-section${i % 2 ? ' pub-section--soft' : ''}`}>
          <div className="pub-container pub-split">
            <div>
              <h2 className="pub-section__title">{a.title}</h2>
              <p>{a.long}</p>
              <h3>What we look after</h3>
              <ul>
                {a.needs.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </div>
            <aside className="pub-card" aria-label={`Suggested packages for ${a.title.toLowerCase()}`}>
              <h3>Suggested packages</h3>
              <ul>
                {a.packages.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
              <Link to="/package-selection" className="pub-button">
                Compare packages
              </Link>
            </aside>
          </div>
        </section>
      ))}
    </>
  );
}

export function ServicesPage() {
  usePageTitle('Services');
  return (
    <>
      <PageHero title="Services" lead="Everything a small UK business needs from its accountant, done online and on time." />
      <section className="pub-section">
        <div className="pub-container pub-grid">
          {SERVICES.map((s) => (
            <article key={s.title} className="pub-card">
              <h2 className="pub-card__title">{s.title}</h2>
              <p>{s.text}</p>
            </article>
          ))}
        </div>
      </section>
      <Section
        title="Included in your package"
        soft
        intro="Each package lists exactly which of these it covers; nothing is billed by the hour."
      >
        <Link to="/package-selection" className="pub-button">
          See what each package includes
        </Link>
      </Section>
    </>
  );
}

export function ResourcesPage() {
  usePageTitle('Resources');
  return (
    <>
      <PageHero title="Resources" lead="Key dates, rates and plain-English guides for running a small business in the UK." />
      <section className="pub-section">
        <div className="pub-container pub-grid">
          {RESOURCES.map((r) => (
            <article key={r.title} className="pub-card">
              <h2 className="pub-card__title">{r.title}</h2>
              <ul>
                {r.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </section>
      <Section title="From the blog" soft>
        <ul className="pub-list-plain pub-stack">
          {POSTS.map((p) => (
            <li key={p.slug}>
              <Link to={`/blog/${p.slug}`}>{p.title}</Link>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

export function AboutUsPage() {
  usePageTitle('About us');
  const { practice } = usePublicConfig();
  return (
    <>
      <PageHero
        title="About us"
        lead={`${practice?.name ?? 'We are'} an online accountancy practice for small UK businesses. Chartered accountants and bookkeepers, working with clients across England, Scotland, Wales and Northern Ireland.`}
      />
      <section className="pub-section">
        <div className="pub-container pub-prose">
          <h2>Why we work this way</h2>
          <p>
            Most small businesses do not need an office visit; they need quick answers, filings done on time and someone who remembers their
            business. Working online lets us give every client a named accountant at a fixed monthly price.
          </p>
          <h2>How we keep your data safe</h2>
          <p>
            Your documents are stored encrypted and only you and your assigned accountant can open them. We sign in with strong passwords
            and keep a log of who viewed what.
          </p>
          <h2>Talk to us</h2>
          <ContactLine />
        </div>
      </section>
    </>
  );
}

export function BlogPage() {
  const { slug } = useParams();
  if (slug) return <BlogPostPage slug={slug} />;
  return <BlogListPage />;
}

function BlogListPage() {
  usePageTitle('Blog');
  return (
    <>
      <PageHero title="Blog" lead="Short, practical notes on tax, VAT and running a small business." />
      <section className="pub-section">
        <div className="pub-container pub-stack">
          {POSTS.map((p) => (
            <article key={p.slug} className="pub-card pub-post-card">
              <h2 className="pub-card__title">
                <Link to={`/blog/${p.slug}`}>{p.title}</Link>
              </h2>
              <p className="pub-meta">
                <time dateTime={p.date}>{formatDate(p.date)}</time> · {p.author}
              </p>
              <p>{p.summary}</p>
            </article>
          ))}
        </div>
      </section>
    </>
  );
}

function BlogPostPage({ slug }: { slug: string }) {
  const post = findPost(slug);
  usePageTitle(post?.title ?? 'Post not found');
  if (!post) {
    return (
      <PageHero title="Post not found" lead="That post has moved or never existed.">
        <Link to="/blog" className="pub-button">
          All posts
        </Link>
      </PageHero>
    );
  }
  return (
    <article className="pub-section">
      <div className="pub-container pub-prose">
        <p className="pub-meta">
          <Link to="/blog">Blog</Link> · <time dateTime={post.date}>{formatDate(post.date)}</time> · {post.author}
        </p>
        <h1 className="pub-hero__title">{post.title}</h1>
        <p className="pub-hero__lead">{post.summary}</p>
        <Markdown source={post.body} />
        <p className="pub-more">
          <Link to="/package-selection" className="pub-button">
            See our packages
          </Link>
        </p>
      </div>
    </article>
  );
}

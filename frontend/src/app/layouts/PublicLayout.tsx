import { Suspense } from 'react';
import { Layout } from 'antd';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { usePublicConfig } from '../../features/public/api';
import { Maintenance } from '../../features/status-pages/Maintenance';
import { PageSpinner } from '../../shared/PageSpinner';
import { APP_NAME } from '../../shared/use-page-title';
import './public-layout.css';

const NAV_LINKS = [
  { to: '/who-we-help', label: 'Who we help' },
  { to: '/services', label: 'Services' },
  { to: '/resources', label: 'Resources' },
  { to: '/about-us', label: 'About us' },
  { to: '/blog', label: 'Blog' },
  { to: '/package-selection', label: 'Packages' },
  { to: '/login', label: 'Log in' },
] as const;

/** Shared frame of the public and client pages: header, nav, footer, and the maintenance switch. */
export function PublicLayout() {
  const { isLoading, maintenance, practice } = usePublicConfig();

  // Wait for the config so neither the practice name nor the maintenance page flashes in late.
  if (isLoading) return <PageSpinner fullScreen />;
  if (maintenance) return <Maintenance />;

  const name = practice?.name || APP_NAME;
  return (
    <Layout className="public-layout">
      <Layout.Header className="public-layout__header">
        <Link to="/" className="public-layout__brand">
          {name}
        </Link>
        <nav aria-label="Main" className="public-layout__nav">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className="public-layout__link">
              {link.label}
            </NavLink>
          ))}
        </nav>
      </Layout.Header>
      <Layout.Content className="public-layout__content">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
      <Layout.Footer className="public-layout__footer">
        <span>{name}</span>
        {practice?.phone && (
          <a href={`tel:${practice.phone.replace(/\s+/g, '')}`} className="public-layout__link">
            {practice.phone}
          </a>
        )}
        {practice?.email && (
          <a href={`mailto:${practice.email}`} className="public-layout__link">
            {practice.email}
          </a>
        )}
      </Layout.Footer>
    </Layout>
  );
}

export default PublicLayout;

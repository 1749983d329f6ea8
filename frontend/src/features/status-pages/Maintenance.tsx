import { ToolOutlined } from '@ant-design/icons';
import { MESSAGES } from '@countinghouse/proto';
import { usePageTitle } from '../../shared/use-page-title';
import './status-pages.css';

/** Full-screen maintenance notice; the public layout shows it when the gateway says so. */
export function Maintenance({ practice }: { practice?: { phone: string; email: string } | null }) {
  usePageTitle(MESSAGES.maintenanceHeading);
  return (
    <main className="status-page">
      <ToolOutlined className="status-page__icon" aria-hidden="true" />
      <h1 className="status-page__title">{MESSAGES.maintenanceHeading}</h1>
      <p className="status-page__text">{MESSAGES.maintenanceText}</p>
      <p className="status-page__text">{MESSAGES.maintenanceCheckBack}</p>
      <footer className="status-page__footer">
        <p>{MESSAGES.maintenanceFooter}</p>
        {practice && (practice.phone || practice.email) && (
          <p className="status-page__contact">
            {practice.phone && <a href={`tel:${practice.phone.replace(/[^0-9+]/g, '')}`}>{practice.phone}</a>}
            {practice.phone && practice.email && ' · '}
            {practice.email && <a href={`mailto:${practice.email}`}>{practice.email}</a>}
          </p>
        )}
      </footer>
    </main>
  );
}

export default Maintenance;

import { ToolOutlined } from '@ant-design/icons';
import { MESSAGES } from '@countinghouse/proto';
import { usePageTitle } from '../../shared/use-page-title';
import './status-pages.css';

/** Full-screen maintenance notice; the public layout shows it when the gateway says so. */
export function Maintenance() {
  usePageTitle(MESSAGES.maintenanceHeading);
  return (
    <main className="status-page">
      <ToolOutlined className="status-page__icon" aria-hidden="true" />
      <h1 className="status-page__title">{MESSAGES.maintenanceHeading}</h1>
      <p className="status-page__text">{MESSAGES.maintenanceText}</p>
      <p className="status-page__text">{MESSAGES.maintenanceCheckBack}</p>
      <footer className="status-page__footer">{MESSAGES.maintenanceFooter}</footer>
    </main>
  );
}

export default Maintenance;

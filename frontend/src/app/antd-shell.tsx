import { useEffect, type ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import dayjs from 'dayjs';
import 'dayjs/locale/en-gb';
import { toastHost } from '../shared/toast-host';
import { useDialogFocus } from './dialog-focus';
import { useScrollRegions } from './scroll-regions';
import { usePrefersReducedMotion } from '../shared/use-reduced-motion';
import { themeFor } from './theme';
import 'antd/dist/antd.css';
import './a11y.css';

// Dates in pickers and antd's own texts follow en-GB (dd/mm/yyyy, Monday first).
dayjs.locale('en-gb');
// The root may now mount the ToastHost below: antd is loaded.
toastHost.markShellLoaded();

/** antd's theme and en-GB locale, and its App context (message, notification, modal) for useToast. */
export function AntdProviders({ children }: { children: ReactNode }) {
  useScrollRegions();
  useDialogFocus();
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider locale={enGB} theme={themeFor(reducedMotion)}>
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}

/**
 * Around every page built with antd (client, staff and admin areas, sign-in forms): a layout route
 * (renders the matched child) or a wrapper of one route's element. It is loaded lazily, so the
 * marketing pages and the entry chunk carry no antd (the home page's JS budget).
 */
export function AntdShell({ children }: { children?: ReactNode }) {
  return <AntdProviders>{children ?? <Outlet />}</AntdProviders>;
}

export default AntdShell;

function HostCapture() {
  const app = AntApp.useApp();
  useEffect(() => {
    toastHost.set(app);
    return () => toastHost.set(null);
  }, [app]);
  return null;
}

/**
 * The app's one toast holder (shared/toast-host.ts), mounted by the root beside the routes so that a
 * toast outlives the navigation that follows it ("Login Successful" as the dashboard opens). Its own
 * providers give it the theme and the en-GB locale.
 */
export function ToastHost() {
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider locale={enGB} theme={themeFor(reducedMotion)}>
      <AntApp component={false}>
        <HostCapture />
      </AntApp>
    </ConfigProvider>
  );
}

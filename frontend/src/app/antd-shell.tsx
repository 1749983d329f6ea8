import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import dayjs from 'dayjs';
import 'dayjs/locale/en-gb';
import { useDialogFocus } from './dialog-focus';
import { useScrollRegions } from './scroll-regions';
import { THEME } from './theme';
import './a11y.css';

// Dates in pickers and antd's own texts follow en-GB (dd/mm/yyyy, Monday first).
dayjs.locale('en-gb');

/** antd's theme and en-GB locale, and its App context (message, notification, modal) for useToast. */
export function AntdProviders({ children }: { children: ReactNode }) {
  useScrollRegions();
  useDialogFocus();
  return (
    <ConfigProvider locale={enGB} theme={THEME}>
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

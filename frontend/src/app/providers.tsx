import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import dayjs from 'dayjs';
import 'dayjs/locale/en-gb';
import { Provider } from 'react-redux';
import type { AppStore } from './store';

// Dates in pickers and antd's own texts follow en-GB (dd/mm/yyyy, Monday first).
dayjs.locale('en-gb');

/** Redux store, antd theme/locale and antd's App context (for message and notification). */
export function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <ConfigProvider locale={enGB} theme={{ token: { colorPrimary: '#1677ff' } }}>
        <AntApp>{children}</AntApp>
      </ConfigProvider>
    </Provider>
  );
}

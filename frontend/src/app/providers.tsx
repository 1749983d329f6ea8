import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { AppStore } from './store';

/**
 * The Redux store only. antd's ConfigProvider and App context live in the lazy AntdShell layout route
 * (./antd-shell), so the entry chunk stays free of antd.
 */
export function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return <Provider store={store}>{children}</Provider>;
}

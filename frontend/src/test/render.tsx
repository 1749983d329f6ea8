import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AntdProviders } from '../app/antd-shell';
import { Providers } from '../app/providers';
import { routes as appRoutes } from '../app/router';
import { makeStore, type RootState } from '../app/store';

/** Renders the app (or given routes) at `path` with a fresh store; returns the router to inspect. */
export function renderAt(path: string, options: { routes?: RouteObject[]; state?: Partial<RootState> } = {}) {
  const store = makeStore(options.state);
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  // The app's routes bring antd's providers with their AntdShell layout route; given routes get them here.
  const app = <RouterProvider router={router} />;
  const view = render(<Providers store={store}>{options.routes ? <AntdProviders>{app}</AntdProviders> : app}</Providers>);
  return { ...view, store, router };
}

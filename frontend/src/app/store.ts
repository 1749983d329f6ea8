import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api';
import { adminSessionReducer, readStoredAdmin, writeStoredAdmin } from './admin-session';
import { personSessionReducer } from './person-session';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  adminSession: adminSessionReducer,
  personSession: personSessionReducer,
});
export type RootState = ReturnType<typeof rootReducer>;

/** A fresh store; tests make one each so no state leaks between them. */
export function makeStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState ?? { adminSession: { user: readStoredAdmin(), ended: null } },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  setupListeners(store.dispatch);

  // Mirror the admin user (never a token) into sessionStorage for the next first paint.
  let lastUser = store.getState().adminSession.user;
  store.subscribe(() => {
    const user = store.getState().adminSession.user;
    if (user !== lastUser) {
      lastUser = user;
      writeStoredAdmin(user);
    }
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

import { createContext, useContext, type ReactNode } from 'react';
import type { CrmRealm } from './api';

const RealmContext = createContext<CrmRealm>('admin');

/** The staff portal wraps its crm pieces in realm 'user' so their calls refresh the person's session. */
export function CrmRealmProvider({ realm, children }: { realm: CrmRealm; children: ReactNode }) {
  return <RealmContext.Provider value={realm}>{children}</RealmContext.Provider>;
}

export const useCrmRealm = () => useContext(RealmContext);

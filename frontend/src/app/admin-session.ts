import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AdminUser } from '@countinghouse/proto';

/**
 * The signed-in administrator: only the non-secret user record. Tokens live in httpOnly cookies
 * set by the gateway and never reach JavaScript.
 */
export const ADMIN_STORAGE_KEY = 'countinghouse.admin';

/** Why the admin session ended, so the guard can say the right thing. */
export type AdminSessionEnd = 'no-session' | 'expired';

export interface AdminSessionState {
  user: AdminUser | null;
  ended: AdminSessionEnd | null;
}

function isAdminUser(value: unknown): value is AdminUser {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.username === 'string' && typeof v.role === 'string';
}

/** The user saved for a quick first paint; the server still verifies before anything is shown. */
export function readStoredAdmin(): AdminUser | null {
  try {
    const raw = window.sessionStorage.getItem(ADMIN_STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isAdminUser(parsed) ? { id: parsed.id, username: parsed.username, role: parsed.role } : null;
  } catch {
    return null;
  }
}

export function writeStoredAdmin(user: AdminUser | null): void {
  try {
    if (user) window.sessionStorage.setItem(ADMIN_STORAGE_KEY, JSON.stringify(user));
    else window.sessionStorage.removeItem(ADMIN_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, quota); the session cookie still works.
  }
}

const initialState: AdminSessionState = { user: null, ended: null };

const adminSession = createSlice({
  name: 'adminSession',
  initialState,
  reducers: {
    /** Login, verify and refresh all end here with the server's view of the user. */
    adminUserReceived(state, action: PayloadAction<AdminUser>) {
      const { id, username, role } = action.payload;
      state.user = { id, username, role };
      state.ended = null;
    },
    adminSessionEnded(state, action: PayloadAction<AdminSessionEnd>) {
      state.user = null;
      state.ended = action.payload;
    },
    /** Logout, or the admin layout has told the user their session ended and redirected. */
    adminLoggedOut(state) {
      state.user = null;
      state.ended = null;
    },
  },
  selectors: {
    selectAdminUser: (state) => state.user,
    selectAdminSessionEnd: (state) => state.ended,
  },
});

export const { adminUserReceived, adminSessionEnded, adminLoggedOut } = adminSession.actions;
export const { selectAdminUser, selectAdminSessionEnd } = adminSession.selectors;
export const adminSessionReducer = adminSession.reducer;

import { createSlice } from '@reduxjs/toolkit';

/**
 * Whether a person's (staff or client) session has ended. Nothing about the person is kept in the
 * browser: `GET /auth/me` (cached by RTK Query) is the source of truth, and tokens live in httpOnly
 * cookies. The page that is showing decides where to send the user (staff → /staff-login,
 * client → /login), so the base query only records that the session is gone.
 */
export type PersonSessionEnd = 'no-session' | 'expired';

export interface PersonSessionState {
  ended: PersonSessionEnd | null;
}

const initialState: PersonSessionState = { ended: null };

const personSession = createSlice({
  name: 'personSession',
  initialState,
  reducers: {
    personSessionEnded(state, action: { payload: PersonSessionEnd }) {
      state.ended = action.payload;
    },
    /** A sign-in, a sign-out, or the guard has redirected after telling the user. */
    personSessionReset(state) {
      state.ended = null;
    },
  },
  selectors: {
    selectPersonSessionEnd: (state) => state.ended,
  },
});

export const { personSessionEnded, personSessionReset } = personSession.actions;
export const { selectPersonSessionEnd } = personSession.selectors;
export const personSessionReducer = personSession.reducer;

import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { MESSAGES, STAFF_PORTAL_ROLES, type Me, type Role } from '@countinghouse/proto';
import { errorBody, httpStatus } from '../../app/api';
import { personSessionReset } from '../../app/person-session';
import { useAppDispatch } from '../../app/store';
import { forgetPrivateData } from './forget';
import { serverText, useToast, type ToastText } from '../../shared/toast';
import { usePersonLogoutMutation } from './api';

/** Staff portal access: an active admin, staff or manager grant (spec 6; an accountant is not enough). */
export function hasStaffPortalAccess(me: Pick<Me, 'roles'> | undefined): boolean {
  return Boolean(me?.roles.some((r) => (STAFF_PORTAL_ROLES as readonly Role[]).includes(r)));
}

/** First name, else the e-mail (the staff portal's welcome header). */
export function firstNameOrEmail(me: Me): string {
  return me.user.first_name?.trim() || me.user.email;
}

export interface LoginFailure {
  /** 'Login Failed' for wrong credentials, shown above the text. */
  title?: ToastText;
  text: ToastText;
}

/** What to show for a failed person sign-in (spec section 8: 'Login Failed' with the message). */
export function personLoginFailure(error: unknown): LoginFailure {
  const status = httpStatus(error);
  const message = errorBody(error)?.message;
  if (status === 401) return { title: MESSAGES.loginFailedTitle, text: message ? serverText(message) : MESSAGES.invalidEmailOrPassword };
  if (status === 403) return { text: MESSAGES.noStaffAccess };
  if (status === 429) return { text: message ? serverText(message) : MESSAGES.tooManyRequests };
  if (status === 400) return { title: MESSAGES.loginFailedTitle, text: MESSAGES.invalidEmailOrPassword };
  return { text: MESSAGES.loginFailedTryAgain };
}

/**
 * Sign a person out: the server revokes the session and clears the cookies; locally the cached data
 * of that person is dropped whatever the server said. Returns whether the server confirmed.
 */
export function usePersonSignOut() {
  const [logout, { isLoading }] = usePersonLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();

  const signOut = useCallback(
    async (options: { to: string; announce?: boolean }) => {
      let ok = false;
      try {
        await logout().unwrap();
        ok = true;
      } catch {
        // Signed out locally anyway; the access token expires on its own.
      }
      dispatch(forgetPrivateData());
      dispatch(personSessionReset());
      if (ok && options.announce !== false) toast.success(MESSAGES.loggedOut, 'person-session');
      navigate(options.to, { replace: true });
      return ok;
    },
    [logout, dispatch, navigate, toast],
  );
  return { signOut, isSigningOut: isLoading };
}

/** Only same-site paths ("/x", never "//host" or "https://…") may be a post-login destination. */
export function safeRedirect(value: string | null | undefined, fallback: string): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  try {
    const url = new URL(value, 'http://same.site');
    if (url.origin !== 'http://same.site') return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

export { forgetPrivateData };

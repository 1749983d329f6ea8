import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import { MESSAGES } from '@countinghouse/proto';
import { authApi, usePersonLogoutMutation, useSessionProbeQuery } from '../../features/auth/api';
import { forgetPrivateData } from '../../features/auth/forget';
import { personSessionReset } from '../person-session';
import { useAppDispatch } from '../store';
import { dashboardPathOf, isStaff, type FrameState } from './PublicLayout';

/** Signed-in pages whose own guard asks `me` (the header reads its answer). */
const SELF_CHECKING = ['/dashboard', '/client-dashboard', '/payment-success', '/integrations', '/staff/dashboard'];

/**
 * The header's session links: "Log in" for a visitor; for a signed-in client or member of staff
 * who it is, Dashboard and Log out, on every page of this frame (issue 22). The person comes from
 * the client pages' `me` when cached, else from a probe that never refreshes or ends a session.
 */
export default function SessionLinks() {
  const { pathname } = useLocation();
  const cached = authApi.endpoints.me.useQueryState();
  // Pages that check the session themselves (RequireClient, the staff portal) fill `me`: no second call.
  const ownCheck = SELF_CHECKING.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  const probe = useSessionProbeQuery(undefined, { skip: Boolean(cached.data) || ownCheck });
  const me = cached.data ?? probe.data;
  const [logout, { isLoading }] = usePersonLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  if (!me)
    return (
      <NavLink to="/login" className="public-layout__link">
        Log in
      </NavLink>
    );

  const who = me.user.first_name?.trim() || me.user.email;
  const signOut = async () => {
    try {
      await logout().unwrap();
    } catch {
      // Signed out locally anyway; the access token expires on its own.
    }
    const state: FrameState = { notice: MESSAGES.loggedOut };
    // Leave the page first, so a signed-in page's guard does not see its data vanish and redirect.
    navigate(isStaff(me) ? '/staff-login' : '/login', { replace: true, state });
    dispatch(forgetPrivateData());
    dispatch(personSessionReset());
  };
  return (
    <span className="public-layout__session">
      <span className="public-layout__who" title={me.user.email}>
        <span className="public-layout__who-label">Signed in as </span>
        <strong>{who}</strong>
      </span>
      <NavLink to={dashboardPathOf(me)} className="public-layout__link">
        Dashboard
      </NavLink>
      <button type="button" className="public-layout__logout" onClick={() => void signOut()} disabled={isLoading}>
        {isLoading ? 'Logging out…' : 'Log out'}
      </button>
    </span>
  );
}

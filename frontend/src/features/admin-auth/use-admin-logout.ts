import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '@countinghouse/proto';
import { adminLoggedOut } from '../../app/admin-session';
import { useAppDispatch } from '../../app/store';
import { useToast } from '../../shared/toast';
import { useAdminLogoutMutation } from './api';

/** Sign out: the server revokes the session; locally we clear it whatever the server said (spec 4). */
export function useAdminLogout() {
  const [logout, { isLoading }] = useAdminLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();

  const signOut = useCallback(async () => {
    let ok = false;
    try {
      await logout().unwrap();
      ok = true;
    } catch {
      // Still signed out locally; the server's session expires on its own.
    }
    dispatch(adminLoggedOut());
    if (ok) toast.success(MESSAGES.loggedOut, 'admin-session');
    navigate('/admin/login', { replace: true });
  }, [logout, dispatch, navigate, toast]);

  return { signOut, isSigningOut: isLoading };
}

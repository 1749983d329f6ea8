import { useEffect, useRef } from 'react';
import { Button, Result } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { MESSAGES } from '@countinghouse/proto';
import { httpStatus } from '../../app/api';
import { personSessionReset, selectPersonSessionEnd } from '../../app/person-session';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { PageSpinner } from '../../shared/PageSpinner';
import { useToast } from '../../shared/toast';
import { useMeQuery } from './api';

/**
 * The frame of signed-in client pages (spec 6: "Client pages … require a signed-in user, else
 * redirect to /login"). A session that ran out says 'Your session expired. Please log in again.';
 * either way /login brings the user back here afterwards (?redirect=).
 */
export function RequireClient() {
  const me = useMeQuery(undefined, { refetchOnMountOrArgChange: true, refetchOnFocus: true });
  const ended = useAppSelector(selectPersonSessionEnd);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();

  const status = me.isError ? httpStatus(me.error) : undefined;
  const reason = ended ?? (status === 401 || status === 403 ? 'no-session' : null);

  const left = useRef(false);
  useEffect(() => {
    if (!reason || left.current) return;
    left.current = true;
    if (reason === 'expired') toast.error(MESSAGES.userSessionExpired, 'person-session');
    dispatch(personSessionReset());
    const back = `${location.pathname}${location.search}`;
    navigate(`/login?redirect=${encodeURIComponent(back)}`, { replace: true });
  }, [reason, dispatch, navigate, location.pathname, location.search, toast]);

  if (reason || me.isLoading) return <PageSpinner />;
  if (me.isError) {
    return (
      <Result
        status="error"
        title="We could not check your session"
        subTitle="The server did not answer. Check your connection and try again."
        extra={
          <Button type="primary" onClick={() => void me.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  return <Outlet />;
}

export default RequireClient;

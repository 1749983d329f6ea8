import { useOutletContext } from 'react-router-dom';
import { hasPermission, type Me } from '@countinghouse/proto';
import { ClientJobsPage } from './ClientJobsPage';
import { JobPage } from './JobPage';

// Client jobs (issue 29) in the admin panel (the admin session) and at /work (a person's session).

/** Where a realm's jobs live. */
export const jobsBase = (base: '/admin' | '/work') => (base === '/admin' ? '/admin/client-jobs' : '/work/jobs');

export function AdminClientJobsPage() {
  return <ClientJobsPage realm="admin" base="/admin/client-jobs" canSettle />;
}

export function AdminClientJobPage() {
  return <JobPage realm="admin" back="/admin/client-jobs" recordBase="/admin" />;
}

export function WorkJobsPage() {
  const me = useOutletContext<Me>();
  return <ClientJobsPage realm="user" base="/work/jobs" canSettle={hasPermission(me.roles, 'client_jobs.settings')} />;
}

export function WorkJobPage() {
  return <JobPage realm="user" back="/work/jobs" recordBase="/work" />;
}

import { selectAdminUser } from '../../app/admin-session';
import { useAppSelector } from '../../app/store';
import { ClientRecordPage } from './ClientRecordPage';
import { MyWorkPage } from './MyWorkPage';

export { WorkLayout, WorkClientRecordPage, WorkMyWorkPage } from './WorkLayout';

/** /admin/clients/:id: the client record in the admin panel. */
export function AdminClientRecordPage() {
  return <ClientRecordPage realm="admin" base="/admin" />;
}

/** /admin/work: My work in the admin panel (the admin sees everyone's, or their own). */
export function AdminMyWorkPage() {
  const admin = useAppSelector(selectAdminUser);
  return <MyWorkPage realm="admin" base="/admin" userId={admin?.id ?? null} canSeeEveryone />;
}

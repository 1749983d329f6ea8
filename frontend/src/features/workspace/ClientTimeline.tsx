import { Alert } from 'antd';
import type { AuthRealm } from '../../app/api';

/** Everything that happened to the client, newest first (the workspace's read model). */
export function ClientTimeline(_props: { clientId: string; realm: AuthRealm }) {
  return <Alert type="info" title="The timeline is not available yet." />;
}

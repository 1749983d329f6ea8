import { useCallback, type ReactNode } from 'react';
import { Card, Flex, Typography } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../shared/use-page-title';
import { ClientsWorkspace } from './ClientsWorkspace';
import { CommunicationsWorkspace } from './CommunicationsWorkspace';
import { LeadsWorkspace } from './LeadsWorkspace';
import { TasksWorkspace } from './TasksWorkspace';
import { UpgradesWorkspace } from './UpgradesWorkspace';
import './crm.css';

// The admin pages behind the sidebar's Clients, Leads, Tasks, Upgrades and Communications.

function AdminPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Flex vertical gap={16}>
      <div className="crm-page__header">
        <Typography.Title level={1} className="crm-page__title">
          {title}
        </Typography.Title>
        <Typography.Text type="secondary">{intro}</Typography.Text>
      </div>
      <Card>{children}</Card>
    </Flex>
  );
}

/** ?open=<id> (from the header search) opens that record once; the parameter is then dropped. */
function useOpenParam() {
  const [params, setParams] = useSearchParams();
  const openId = params.get('open');
  const onOpened = useCallback(() => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('open');
        return next;
      },
      { replace: true },
    );
  }, [setParams]);
  return { openId, onOpened };
}

export function AdminClientsPage() {
  const open = useOpenParam();
  return (
    <AdminPage title="Clients" intro="Every client business: search, filter, add and edit.">
      <ClientsWorkspace {...open} />
    </AdminPage>
  );
}

export function AdminLeadsPage() {
  const open = useOpenParam();
  return (
    <AdminPage title="Leads" intro="Sales enquiries: move them through the stages and convert won leads into clients.">
      <LeadsWorkspace {...open} />
    </AdminPage>
  );
}

export function AdminTasksPage() {
  const open = useOpenParam();
  return (
    <AdminPage title="Tasks" intro="The practice's work: who does what, for which client, by when.">
      <TasksWorkspace {...open} />
    </AdminPage>
  );
}

export function AdminUpgradesPage() {
  return (
    <AdminPage title="Upgrades" intro="Package change requests: approve, reject, and complete them to move the client to the new package.">
      <UpgradesWorkspace />
    </AdminPage>
  );
}

export function AdminCommunicationsPage() {
  return (
    <AdminPage title="Communications" intro="Calls, e-mails, meetings and letters with clients.">
      <CommunicationsWorkspace />
    </AdminPage>
  );
}

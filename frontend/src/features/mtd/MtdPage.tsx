import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Empty, Flex, Form, Input, Segmented, Skeleton, Table, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router-dom';
import { ARN_PATTERN, formatDate, MTD_TEXTS, type MtdOverview } from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { PageHeader } from '../../shared/PageHeader';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import {
  useConnectHmrcMutation,
  useMtdConnectionQuery,
  useMtdOverviewQuery,
  useRefreshDueMtdObligationsMutation,
  useSetMtdArnMutation,
} from './api';
import { deviceData } from './device';
import { obligationStatus } from './ClientMtdTab';
import './mtd.css';

const SCOPE: Record<string, string> = { now: 'Now', april_2027: 'April 2027', april_2028: 'April 2028' };

/** The back office's Making Tax Digital page: the HMRC connection, every client's status, scope lists and obligations. */
export function MtdPage({ realm = 'user', base = '/work' }: { realm?: AuthRealm; base?: '/admin' | '/work' }) {
  usePageTitle('Making Tax Digital');
  const overview = useMtdOverviewQuery({ realm });
  return (
    <Flex vertical gap={16} className="mtd-page">
      <PageHeader
        title="Making Tax Digital for Income Tax"
        subtitle="Authorisations, who is in scope, and HMRC's obligations for every client"
      />
      <ConnectionCard realm={realm} />
      <DailyRefresh realm={realm} />
      {overview.isError ? (
        <Alert type="error" showIcon message={errorBody(overview.error)?.message ?? 'The MTD overview could not be loaded.'} />
      ) : !overview.data ? (
        <Skeleton active />
      ) : (
        <>
          <ClientsTable data={overview.data} base={base} />
          <ObligationsTable data={overview.data} base={base} />
        </>
      )}
    </Flex>
  );
}

/**
 * The daily refresh of obligations (issue 31, item 5; decision 675): opening this page reads again from
 * HMRC, five clients a request, every authorised client whose obligations are a day old, from this
 * person's browser (HMRC's fraud prevention headers are theirs). Progress shows while it runs.
 */
function DailyRefresh({ realm }: { realm: AuthRealm }) {
  const c = useMtdConnectionQuery({ realm });
  const [refresh] = useRefreshDueMtdObligationsMutation();
  const [state, setState] = useState<{ running: boolean; done: number; failed: number; left: number; error: string | null } | null>(null);
  const connected = c.data?.configured === true && c.data.connected && !c.data.needsReconnect;
  useEffect(() => {
    if (!connected) return;
    let stop = false;
    void (async () => {
      let done = 0;
      let failed = 0;
      // Bounded: each round reads at least one client or ends, and a page never asks more than 200 times.
      for (let round = 0; round < 200 && !stop; round++) {
        try {
          const r = await refresh({ device: deviceData(), realm }).unwrap();
          done += r.refreshed;
          failed += r.failed;
          if (done + failed > 0 || r.remaining > 0) setState({ running: r.remaining > 0, done, failed, left: r.remaining, error: null });
          if (r.remaining === 0 || r.refreshed + r.failed === 0) return;
        } catch (e: unknown) {
          setState({ running: false, done, failed, left: 0, error: errorBody(e)?.message ?? MTD_TEXTS.hmrcUnavailable });
          return;
        }
      }
    })();
    return () => {
      stop = true;
    };
  }, [connected, realm, refresh]);
  if (!state) return null;
  if (state.error) return <Alert type="warning" showIcon title={`Obligations could not be read from HMRC: ${state.error}`} />;
  const clients = (n: number) => `${n} client${n === 1 ? '' : 's'}`;
  return (
    <Alert
      role="status"
      type={state.running ? 'info' : state.failed > 0 ? 'warning' : 'success'}
      showIcon
      title={
        state.running
          ? `Reading today's obligations from HMRC: ${clients(state.done)} done, ${state.left} to go…`
          : `Obligations read from HMRC today for ${clients(state.done)}${state.failed > 0 ? `; HMRC refused ${clients(state.failed)} (open their record to see why)` : ''}.`
      }
    />
  );
}

function ConnectionCard({ realm }: { realm: AuthRealm }) {
  const c = useMtdConnectionQuery({ realm });
  const [setArn, saving] = useSetMtdArnMutation();
  const [connect, connecting] = useConnectHmrcMutation();
  const toast = useToast();
  const [search] = useSearchParams();
  const result = search.get('hmrc');
  useEffect(() => {
    if (result === 'connected') toast.success(serverText(MTD_TEXTS.connected), 'hmrc');
    if (result === 'error') toast.error(serverText(MTD_TEXTS.connectFailed), 'hmrc');
  }, [result, toast]);
  if (!c.data) return <Skeleton active paragraph={{ rows: 2 }} />;
  const d = c.data;
  return (
    <Card size="small" title="The practice's connection to HMRC">
      {!d.configured && <Alert type="info" showIcon message={MTD_TEXTS.notConfigured} style={{ marginBottom: 12 }} />}
      {d.needsReconnect && <Alert type="warning" showIcon message={MTD_TEXTS.needsReconnect} style={{ marginBottom: 12 }} />}
      <Flex wrap gap={24} align="end">
        <div>
          Status:{' '}
          {d.connected ? (
            <Tag color="green">Connected{d.connectedAt ? ` since ${formatDate(d.connectedAt)}` : ''}</Tag>
          ) : (
            <Tag>Not connected</Tag>
          )}
        </div>
        <Button
          type={d.connected ? 'default' : 'primary'}
          disabled={!d.configured}
          loading={connecting.isLoading}
          onClick={() =>
            void connect({ realm })
              .unwrap()
              .then(
                (r) => window.location.assign(r.authUrl),
                (e: unknown) => toast.error(serverText(errorBody(e)?.message ?? MTD_TEXTS.connectFailed)),
              )
          }
        >
          {d.connected ? 'Reconnect to HMRC' : d.needsReconnect ? 'Reconnect to HMRC' : 'Connect to HMRC'}
        </Button>
        <Form
          layout="inline"
          aria-label="Agent Reference Number"
          initialValues={{ arn: d.arn ?? '' }}
          onFinish={(v: { arn: string }) =>
            void setArn({ arn: v.arn.trim().toUpperCase(), realm })
              .unwrap()
              .then(
                () => toast.success(serverText('Agent Reference Number saved')),
                (e: unknown) => toast.error(serverText(errorBody(e)?.message ?? 'Could not save the ARN')),
              )
          }
        >
          <Form.Item
            name="arn"
            label="Agent Reference Number"
            rules={[{ required: true, pattern: new RegExp(ARN_PATTERN, 'i'), message: 'Like AARN1234567' }]}
          >
            <Input style={{ width: 160 }} autoComplete="off" />
          </Form.Item>
          <Button htmlType="submit" loading={saving.isLoading}>
            Save
          </Button>
        </Form>
      </Flex>
    </Card>
  );
}

const recordLink = (base: string, id: string, name: string) => (
  <Link to={`${base}/clients/${encodeURIComponent(id)}?tab=deadlines`}>{name}</Link>
);

function ClientsTable({ data, base }: { data: MtdOverview; base: string }) {
  const [scope, setScope] = useState<'all' | 'now' | 'april_2027' | 'april_2028'>('all');
  const rows = scope === 'all' ? data.clients : data.clients.filter((c) => c.mandatedFrom === scope);
  return (
    <Card
      size="small"
      title="Clients"
      extra={
        <Segmented
          aria-label="Mandated from"
          value={scope}
          onChange={(v) => setScope(v as typeof scope)}
          options={[
            { value: 'all', label: 'All' },
            { value: 'now', label: `Now (${data.scope.now.length})` },
            { value: 'april_2027', label: `April 2027 (${data.scope.april2027.length})` },
            { value: 'april_2028', label: `April 2028 (${data.scope.april2028.length})` },
          ]}
        />
      }
    >
      <Table
        size="small"
        rowKey="clientId"
        dataSource={rows}
        pagination={{ pageSize: 25, hideOnSinglePage: true }}
        scroll={{ x: true }}
        locale={{ emptyText: <Empty description="No client has MTD details yet. Record qualifying income on a client's MTD tab." /> }}
        columns={[
          { title: 'Client', render: (_v, c) => recordLink(base, c.clientId, c.companyName) },
          { title: 'Mandated', render: (_v, c) => (c.exemptionReason ? <Tag>Exempt</Tag> : c.mandatedFrom ? SCOPE[c.mandatedFrom] : '—') },
          {
            title: 'Authorisation',
            render: (_v, c) =>
              c.authorisationStatus
                ? `${c.authorisationStatus}${c.authorisationStatus === 'Pending' && c.expiresOn ? ` until ${formatDate(c.expiresOn)}` : ''}`
                : 'Not requested',
          },
          { title: 'Due', dataIndex: 'due' },
          { title: 'Overdue', dataIndex: 'overdue', render: (n: number) => (n > 0 ? <Tag color="red">{n}</Tag> : 0) },
          { title: 'Fulfilled', dataIndex: 'fulfilled' },
        ]}
      />
    </Card>
  );
}

function ObligationsTable({ data, base }: { data: MtdOverview; base: string }) {
  const [show, setShow] = useState<'due' | 'overdue' | 'fulfilled'>('due');
  const rows = useMemo(
    () =>
      data.obligations.filter((o) =>
        show === 'fulfilled' ? o.status === 'fulfilled' : show === 'overdue' ? o.overdue : o.status !== 'fulfilled' && !o.overdue,
      ),
    [data, show],
  );
  return (
    <Card
      size="small"
      title="Obligations by quarter"
      extra={
        <Segmented
          aria-label="Obligations shown"
          value={show}
          onChange={(v) => setShow(v as typeof show)}
          options={[
            { value: 'due', label: 'Due' },
            { value: 'overdue', label: 'Overdue' },
            { value: 'fulfilled', label: 'Fulfilled' },
          ]}
        />
      }
    >
      <Table
        size="small"
        rowKey={(o) => `${o.clientId}:${o.kind}:${o.businessId ?? ''}:${o.periodEndDate}`}
        dataSource={rows}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        scroll={{ x: true }}
        locale={{ emptyText: 'Nothing here' }}
        columns={[
          { title: 'Quarter', dataIndex: 'quarter', sorter: (a, b) => a.periodEndDate.localeCompare(b.periodEndDate) },
          { title: 'Client', render: (_v, o) => recordLink(base, o.clientId, o.companyName) },
          { title: 'Obligation', render: (_v, o) => (o.kind === 'final_declaration' ? 'Final declaration' : 'Quarterly update') },
          { title: 'Due', render: (_v, o) => formatDate(o.dueDate) },
          { title: 'Status', render: (_v, o) => obligationStatus(o) },
        ]}
      />
    </Card>
  );
}

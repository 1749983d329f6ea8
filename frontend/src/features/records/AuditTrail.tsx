import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, Empty, Flex, Form, Input, Select, Table, Typography } from 'antd';
import { formatDateTime, type AuditRecord, type AuditQuery } from '@countinghouse/proto';
import { errorBody, httpStatus, type AuthRealm } from '../../app/api';
import { RECORDS_ROUTES, useAuditQuery, useChainCheckMutation, withQuery } from './api';

interface Props {
  /** One client's trail (the client record's tab); without it, the whole practice's. */
  clientId?: string;
  realm?: AuthRealm;
  /** The caller holds audit.export (the CSV link). */
  canExport: boolean;
}

const KINDS = [
  { value: '', label: 'Changes and views' },
  { value: 'changes', label: 'Changes only' },
  { value: 'views', label: 'Views only' },
];

const who = (e: AuditRecord) => e.actor_name ?? (e.actor_kind === 'system' ? 'System' : (e.actor_id ?? 'Unknown'));

/**
 * The audit trail (issue 34): who changed or viewed what, when and from which address; filtered by kind,
 * dates and one member of staff, exported as CSV with the same filters; a client's chain can be checked.
 */
export function AuditTrail({ clientId, realm = 'admin', canExport }: Props) {
  const [kind, setKind] = useState<'' | 'changes' | 'views'>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [actor, setActor] = useState<{ id: string; name: string } | null>(null);
  const [page, setPage] = useState(1);
  const filters: Partial<AuditQuery> = {
    client_id: clientId,
    actor_id: actor?.id,
    kind: kind || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const list = useAuditQuery({ ...filters, page, page_size: 25, realm });
  const [check, checked] = useChainCheckMutation();
  const recordBase = realm === 'admin' ? '/admin/clients' : '/work/clients';

  if (list.isError && httpStatus(list.error) === 403)
    return <Alert type="info" showIcon message="The audit trail is for administrators, managers and the MLRO." />;

  const columns = [
    { title: 'When', dataIndex: 'occurred_at', key: 'when', render: (v: string) => formatDateTime(v), width: 170 },
    {
      title: 'Who',
      key: 'who',
      render: (_: unknown, e: AuditRecord) =>
        e.actor_id ? (
          <Button
            type="link"
            size="small"
            className="audit-trail__who"
            onClick={() => (setActor({ id: e.actor_id!, name: who(e) }), setPage(1))}
          >
            {who(e)}
          </Button>
        ) : (
          who(e)
        ),
    },
    { title: 'Address', dataIndex: 'ip', key: 'ip', render: (v: string | null) => v ?? '—' },
    { title: 'What', dataIndex: 'summary', key: 'what' },
    // The client's name, linking to their record; an entry about no client is the practice's.
    ...(clientId
      ? []
      : [
          {
            title: 'Client',
            key: 'client',
            render: (_: unknown, e: AuditRecord) =>
              e.client_id === null ? (
                'Practice'
              ) : (
                <Link to={`${recordBase}/${encodeURIComponent(e.client_id)}`}>{e.client_name ?? 'Client record'}</Link>
              ),
          },
        ]),
  ];

  return (
    <Flex vertical gap={12} className="audit-trail">
      <Form layout="inline" className="audit-trail__filters" aria-label="Filter the audit trail">
        <Form.Item label="Show" htmlFor="audit-kind">
          <Select id="audit-kind" value={kind} options={KINDS} onChange={(v) => (setKind(v), setPage(1))} style={{ minWidth: 180 }} />
        </Form.Item>
        <Form.Item label="From" htmlFor="audit-from">
          <Input id="audit-from" type="date" value={from} onChange={(e) => (setFrom(e.target.value), setPage(1))} />
        </Form.Item>
        <Form.Item label="To" htmlFor="audit-to">
          <Input id="audit-to" type="date" value={to} onChange={(e) => (setTo(e.target.value), setPage(1))} />
        </Form.Item>
        {canExport && (
          <Form.Item>
            <Button href={withQuery(RECORDS_ROUTES.auditCsv, filters)} download>
              Export CSV
            </Button>
          </Form.Item>
        )}
        {clientId && (
          <Form.Item>
            <Button onClick={() => void check({ clientId, realm })} loading={checked.isLoading}>
              Check the chain
            </Button>
          </Form.Item>
        )}
      </Form>
      {actor && (
        <Alert
          type="info"
          message={`Only ${actor.name}`}
          action={
            <Button size="small" onClick={() => setActor(null)}>
              Show everyone
            </Button>
          }
        />
      )}
      {checked.data && (
        <Alert
          role="status"
          type={checked.data.intact ? 'success' : 'error'}
          showIcon
          message={checked.data.message}
          description={`${checked.data.entries} entries checked.`}
        />
      )}
      {list.isError && <Alert type="error" showIcon message={errorBody(list.error)?.message ?? 'The audit trail could not be loaded.'} />}
      <Table<AuditRecord>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.entries ?? []}
        columns={columns}
        scroll={{ x: true }}
        locale={{ emptyText: <Empty description="No audit entries match." /> }}
        pagination={{ current: page, pageSize: 25, total: list.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      />
      <Typography.Text type="secondary">
        Entries are only ever added; each is chained by hash to the one before, so a changed entry is found by the check.
      </Typography.Text>
    </Flex>
  );
}

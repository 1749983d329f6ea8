import {
  formatDate,
  formatDateTime,
  ITEM_KINDS,
  MESSAGES,
  REQUEST_DOCUMENT_TYPES,
  type ClientRequest,
  type ItemKind,
  type RequestDocumentType,
  type TemplateItem,
} from '@countinghouse/proto';
import { Button, Card, Empty, Flex, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useId, useMemo, useState } from 'react';
import type { AuthRealm } from '../../app/api';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import {
  useRemindNowMutation,
  useRequestClientsQuery,
  useRequestsQuery,
  useRequestTemplatesQuery,
  useReviewItemMutation,
  useSendRequestMutation,
} from './api';
import { MessageThread } from './MessageThread';
import { RequestTemplatesEditor } from './TemplatesEditor';
import './requests.css';
import { LoadingSpin } from '../../shared/LoadingSpin';

const waiting = (days: number) => (days === 1 ? 'waiting 1 day' : `waiting ${days} days`);

function SendRequestForm({ realm }: { realm: AuthRealm }) {
  const clients = useRequestClientsQuery({ realm });
  const templates = useRequestTemplatesQuery({ realm });
  const [send, sending] = useSendRequestMutation();
  const toast = useToast();
  const [clientId, setClientId] = useState<string | undefined>();
  const [templateId, setTemplateId] = useState<string | undefined>();
  const [title, setTitle] = useState('');
  const [dueOn, setDueOn] = useState('');
  const [items, setItems] = useState<TemplateItem[]>([{ kind: 'document', label: '', document_type: 'bank_statements' }]);
  const ids = { client: useId(), template: useId(), title: useId(), due: useId() };

  const pickTemplate = (id: string | undefined) => {
    setTemplateId(id);
    const t = templates.data?.templates.find((x) => x.id === id);
    if (t) {
      setItems(t.items.map((i) => ({ ...i })));
      if (!title) setTitle(t.name);
    }
  };
  const setItem = (n: number, patch: Partial<TemplateItem>) => setItems((xs) => xs.map((x, i) => (i === n ? { ...x, ...patch } : x)));
  const ready = clientId && title.trim() && dueOn && items.length > 0 && items.every((i) => i.label.trim());

  const submit = async () => {
    if (!ready) return;
    try {
      await send({
        realm,
        client_id: clientId,
        title: title.trim(),
        due_on: dueOn,
        template_id: templateId,
        items: items.map((i) => ({
          ...i,
          label: i.label.trim(),
          document_type: i.kind === 'document' ? (i.document_type ?? 'other') : null,
        })),
      }).unwrap();
      toast.success(serverText('Request sent'));
      setTitle('');
      setDueOn('');
      setTemplateId(undefined);
      setItems([{ kind: 'document', label: '', document_type: 'bank_statements' }]);
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? MESSAGES.unexpectedError));
    }
  };

  return (
    <Card title={<h2 className="requests-card-title">Send a request</h2>}>
      <Flex vertical gap={12}>
        <label htmlFor={ids.client}>Client</label>
        <Select
          id={ids.client}
          showSearch
          optionFilterProp="label"
          value={clientId}
          onChange={setClientId}
          placeholder="Choose a client"
          options={(clients.data?.clients ?? []).map((c) => ({ value: c.client_id, label: c.company_name }))}
        />
        <label htmlFor={ids.template}>Template (optional)</label>
        <Select
          id={ids.template}
          allowClear
          value={templateId}
          onChange={pickTemplate}
          placeholder="Start from a template"
          options={(templates.data?.templates ?? []).map((t) => ({ value: t.id, label: t.name }))}
        />
        <label htmlFor={ids.title}>Title</label>
        <Input id={ids.title} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
        <label htmlFor={ids.due}>Due date</label>
        <Input id={ids.due} type="date" value={dueOn} onChange={(e) => setDueOn(e.target.value)} />
        <fieldset className="requests-items-fieldset">
          <legend>Items</legend>
          {items.map((item, n) => (
            <Flex key={n} wrap gap={8} align="center" className="requests-item">
              <Input
                aria-label={`Item ${n + 1}`}
                value={item.label}
                onChange={(e) => setItem(n, { label: e.target.value })}
                style={{ minWidth: 200, flex: 1 }}
              />
              <Select
                aria-label={`Item ${n + 1} kind`}
                value={item.kind}
                onChange={(k: ItemKind) => setItem(n, { kind: k })}
                options={ITEM_KINDS.map((k) => ({ value: k.value, label: k.label }))}
                style={{ minWidth: 180 }}
              />
              {item.kind === 'document' && (
                <Select
                  aria-label={`Item ${n + 1} document type`}
                  value={item.document_type ?? 'other'}
                  onChange={(t: RequestDocumentType) => setItem(n, { document_type: t })}
                  options={REQUEST_DOCUMENT_TYPES.map((t) => ({ value: t.value, label: t.label }))}
                  style={{ minWidth: 160 }}
                />
              )}
              <Button onClick={() => setItems((xs) => xs.filter((_, i) => i !== n))} disabled={items.length === 1}>
                Remove item {n + 1}
              </Button>
            </Flex>
          ))}
          <Button onClick={() => setItems((xs) => [...xs, { kind: 'document', label: '', document_type: 'other' }])}>Add item</Button>
        </fieldset>
        <div>
          <Button type="primary" onClick={() => void submit()} disabled={!ready} loading={sending.isLoading}>
            Send request
          </Button>
        </div>
      </Flex>
    </Card>
  );
}

function ReviewItem({ request, itemId, realm }: { request: ClientRequest; itemId: string; realm: AuthRealm }) {
  const item = request.items.find((i) => i.id === itemId)!;
  const [review, reviewing] = useReviewItemMutation();
  const [reason, setReason] = useState('');
  const toast = useToast();
  const reasonId = useId();
  const act = async (decision: 'accept' | 'reject') => {
    try {
      await review({ id: request.id, itemId, realm, decision, reason: decision === 'reject' ? reason.trim() : undefined }).unwrap();
      toast.success(serverText(decision === 'accept' ? `Accepted: ${item.label}` : `Sent back: ${item.label}`));
      setReason('');
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? MESSAGES.unexpectedError));
    }
  };
  return (
    <li className="requests-item">
      <Flex wrap gap={8} align="center">
        <Typography.Text strong>{item.label}</Typography.Text>
        <Tag color={{ requested: 'default', submitted: 'blue', accepted: 'green', rejected: 'orange' }[item.status]}>
          {{ requested: 'Requested', submitted: 'Submitted', accepted: 'Accepted', rejected: 'Sent back' }[item.status]}
        </Tag>
      </Flex>
      {item.answer && <p>Answer: {item.answer}</p>}
      {item.confirmed !== null && <p>Confirmed: {item.confirmed ? 'Yes' : 'No'}</p>}
      {item.document_ids.length > 0 && <p>{item.document_ids.length} file(s) in the client’s documents</p>}
      {item.status === 'rejected' && item.rejection_reason && <p>Reason given: {item.rejection_reason}</p>}
      {item.status === 'submitted' && (
        <Flex vertical gap={8} className="requests-item__action">
          <Space wrap>
            <Button type="primary" onClick={() => void act('accept')} loading={reviewing.isLoading}>
              Accept {item.label}
            </Button>
          </Space>
          <label htmlFor={reasonId}>Reason to send back {item.label}</label>
          <Flex wrap gap={8}>
            <Input
              id={reasonId}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={1000}
              style={{ minWidth: 200, flex: 1 }}
            />
            <Button danger disabled={!reason.trim()} onClick={() => void act('reject')} loading={reviewing.isLoading}>
              Reject
            </Button>
          </Flex>
        </Flex>
      )}
    </li>
  );
}

function RequestDetail({ request, realm }: { request: ClientRequest; realm: AuthRealm }) {
  const [remind, reminding] = useRemindNowMutation();
  const toast = useToast();
  const sendNow = async () => {
    try {
      await remind({ id: request.id, realm }).unwrap();
      toast.success(serverText('Reminder sent'));
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? MESSAGES.unexpectedError));
    }
  };
  return (
    <Flex vertical gap={16}>
      <Card title={<h2 className="requests-card-title">{`${request.client_name}: ${request.title}`}</h2>}>
        <p>
          Due {formatDate(request.due_on)} · sent {formatDate(request.sent_on)} ·{' '}
          {request.status === 'open' ? waiting(request.waiting_days) : request.status}
        </p>
        <ul className="requests-items">
          {request.items.map((i) => (
            <ReviewItem key={i.id} request={request} itemId={i.id} realm={realm} />
          ))}
        </ul>
        <h3 className="requests-request__title">Reminders</h3>
        {request.reminders.length === 0 ? (
          <p>None sent yet.</p>
        ) : (
          <ul>
            {request.reminders.map((m) => (
              <li key={m.day}>
                {formatDateTime(m.at)} to {m.to}
              </li>
            ))}
          </ul>
        )}
        {request.status === 'open' && (
          <Button onClick={() => void sendNow()} loading={reminding.isLoading}>
            Send a reminder now
          </Button>
        )}
      </Card>
      <MessageThread clientId={request.client_id} realm={realm} title={`Messages with ${request.client_name}`} />
    </Flex>
  );
}

/**
 * The practice's Requests page: outstanding requests by client, due date and staleness; send; review; and,
 * for those who hold requests.templates (managers), the template editor.
 */
export function RequestsWorkspace({ realm, templates = false }: { realm: AuthRealm; templates?: boolean }) {
  const q = useRequestsQuery({ status: 'open', realm });
  const [selected, setSelected] = useState<string | null>(null);
  const rows = useMemo(() => q.data?.requests ?? [], [q.data]);
  const current = rows.find((r) => r.id === selected) ?? null;

  return (
    <Flex vertical gap={16} className="requests-workspace">
      <Card title={<h2 className="requests-card-title">Outstanding requests</h2>}>
        {q.isLoading && <LoadingSpin label="Loading requests" />}
        {q.isError && <Typography.Text type="danger">The requests could not be loaded.</Typography.Text>}
        {q.data && rows.length === 0 && <Empty description="No outstanding requests" />}
        {rows.length > 0 && (
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: true }}
            dataSource={rows}
            columns={[
              { title: 'Client', dataIndex: 'client_name', sorter: (a, b) => a.client_name.localeCompare(b.client_name) },
              { title: 'Request', dataIndex: 'title' },
              {
                title: 'Due',
                dataIndex: 'due_on',
                render: (d: string) => formatDate(d),
                sorter: (a, b) => a.due_on.localeCompare(b.due_on),
              },
              {
                title: 'Waiting',
                dataIndex: 'waiting_days',
                render: (d: number) => waiting(d),
                sorter: (a, b) => a.waiting_days - b.waiting_days,
              },
              { title: 'Open items', dataIndex: 'open_items' },
              { title: 'To review', dataIndex: 'awaiting_review', render: (n: number) => (n > 0 ? <Tag color="blue">{n}</Tag> : 0) },
              {
                title: 'Actions',
                key: 'open',
                render: (_: unknown, r: ClientRequest) => (
                  <Button onClick={() => setSelected(r.id)} aria-label={`Open ${r.title} for ${r.client_name}`}>
                    Open
                  </Button>
                ),
              },
            ]}
          />
        )}
      </Card>
      {current && <RequestDetail request={current} realm={realm} />}
      <SendRequestForm realm={realm} />
      {templates && <RequestTemplatesEditor realm={realm} />}
    </Flex>
  );
}

export default RequestsWorkspace;

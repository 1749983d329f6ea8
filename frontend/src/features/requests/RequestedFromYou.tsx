import { formatDate, MESSAGES, REQUEST_DOCUMENT_TYPES, type ClientRequest, type RequestItem } from '@countinghouse/proto';
import { Alert, Button, Card, Empty, Flex, Input, Tag, Typography } from 'antd';
import { useId, useRef, useState } from 'react';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { toAttachedFile, useRequestsQuery, useSubmitItemMutation } from './api';
import './requests.css';
import { LoadingSpin } from '../../shared/LoadingSpin';

const typeLabel = (t: string | null) => REQUEST_DOCUMENT_TYPES.find((x) => x.value === t)?.label ?? 'Document';

function ItemRow({ request, item }: { request: ClientRequest; item: RequestItem }) {
  const [submit, submitting] = useSubmitItemMutation();
  const [answer, setAnswer] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const toast = useToast();
  const inputId = useId();
  const open = item.status === 'requested' || item.status === 'rejected';

  const go = async (body: { answer?: string; confirmed?: boolean; file?: Awaited<ReturnType<typeof toAttachedFile>> }) => {
    try {
      await submit({ id: request.id, itemId: item.id, realm: 'user', ...body }).unwrap();
      toast.success(serverText(`Sent: ${item.label}`));
      setAnswer('');
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? MESSAGES.unexpectedError));
    }
  };
  const upload = async () => {
    const f = fileRef.current?.files?.[0];
    if (!f) return toast.error(serverText('Choose a file to upload'));
    await go({ file: await toAttachedFile(f) });
  };

  return (
    <li className="requests-item" id={`item-${item.id}`}>
      <Flex wrap gap={8} align="center">
        <Typography.Text strong>{item.label}</Typography.Text>
        {item.kind === 'document' && <Tag>{typeLabel(item.document_type)}</Tag>}
        {item.status === 'submitted' && <Tag color="blue">Waiting for review</Tag>}
        {item.status === 'accepted' && <Tag color="green">Accepted</Tag>}
        {item.status === 'rejected' && <Tag color="orange">Sent back</Tag>}
      </Flex>
      {item.status === 'rejected' && item.rejection_reason && (
        <Alert type="warning" showIcon className="requests-item__reason" message={`Sent back: ${item.rejection_reason}`} />
      )}
      {open && item.kind === 'document' && (
        <Flex wrap gap={8} align="center" className="requests-item__action">
          <label htmlFor={inputId}>File for {item.label}</label>
          <input id={inputId} ref={fileRef} type="file" accept=".pdf,.jpg,.jpeg,.png,.gif,.xlsx,.xls,.csv" />
          <Button type="primary" onClick={() => void upload()} loading={submitting.isLoading}>
            Upload
          </Button>
        </Flex>
      )}
      {open && item.kind === 'question' && (
        <Flex vertical gap={8} className="requests-item__action">
          <label htmlFor={inputId}>Your answer: {item.label}</label>
          <Input.TextArea id={inputId} rows={2} value={answer} onChange={(e) => setAnswer(e.target.value)} maxLength={5000} />
          <div>
            <Button type="primary" disabled={!answer.trim()} onClick={() => void go({ answer })} loading={submitting.isLoading}>
              Send answer
            </Button>
          </div>
        </Flex>
      )}
      {open && item.kind === 'confirm' && (
        <Flex gap={8} className="requests-item__action" role="group" aria-label={item.label}>
          <Button onClick={() => void go({ confirmed: true })} loading={submitting.isLoading}>
            Yes
          </Button>
          <Button onClick={() => void go({ confirmed: false })} loading={submitting.isLoading}>
            No
          </Button>
        </Flex>
      )}
    </li>
  );
}

/** "Requested from you": the client's open requests, first on their dashboard. */
export function RequestedFromYou() {
  const q = useRequestsQuery({ status: 'open', realm: 'user' });
  const requests = q.data?.requests ?? [];
  return (
    <Card title={<h2 className="requests-card-title">Requested from you</h2>} className="client-gap requests-from-you">
      {q.isLoading && <LoadingSpin label="Loading requests" />}
      {q.isError && <Typography.Text type="danger">Your requests could not be loaded.</Typography.Text>}
      {q.data && requests.length === 0 && <Empty description="Nothing is requested from you right now." />}
      {requests.map((r) => (
        <section key={r.id} className="requests-request" aria-label={r.title}>
          <h3 className="requests-request__title">{r.title}</h3>
          <Typography.Text type={r.due_on < new Date().toISOString().slice(0, 10) ? 'danger' : 'secondary'}>
            Due {formatDate(r.due_on)}
          </Typography.Text>
          <ul className="requests-items">
            {r.items.map((i) => (
              <ItemRow key={i.id} request={r} item={i} />
            ))}
          </ul>
        </section>
      ))}
    </Card>
  );
}

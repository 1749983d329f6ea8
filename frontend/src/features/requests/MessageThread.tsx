import { formatDateTime, MESSAGES } from '@countinghouse/proto';
import { Button, Card, Empty, Flex, Input, Typography } from 'antd';
import { useId, useRef, useState } from 'react';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { toAttachedFile, usePostMessageMutation, useThreadQuery } from './api';
import { LoadingSpin } from '../../shared/LoadingSpin';

/**
 * The one secure thread between a client and the practice, for either side (realm 'user' for the
 * client and the staff portal, 'admin' for the admin panel). Opening it marks it read.
 */
export function MessageThread({ clientId, realm, title = 'Secure messages' }: { clientId: string; realm: AuthRealm; title?: string }) {
  const thread = useThreadQuery({ clientId, realm });
  const [post, posting] = usePostMessageMutation();
  const [text, setText] = useState('');
  const fileRef = useRef<HTMLInputElement>(null);
  const toast = useToast();
  const textId = useId();
  const fileId = useId();

  const send = async () => {
    const body = text.trim();
    if (!body) return;
    try {
      const files = [...(fileRef.current?.files ?? [])];
      const attachments = await Promise.all(files.map(toAttachedFile));
      await post({ clientId, realm, body, attachments: attachments.length ? attachments : undefined }).unwrap();
      setText('');
      if (fileRef.current) fileRef.current.value = '';
      toast.success(serverText('Message sent'));
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? MESSAGES.unexpectedError));
    }
  };

  return (
    <Card title={<h2 className="requests-card-title">{title}</h2>} className="requests-thread">
      {thread.isLoading && <LoadingSpin label="Loading messages" />}
      {thread.isError && <Typography.Text type="danger">The messages could not be loaded.</Typography.Text>}
      {thread.data && thread.data.messages.length === 0 && <Empty description="No messages yet" />}
      {thread.data && thread.data.messages.length > 0 && (
        <ol className="requests-thread__list" aria-label="Messages">
          {thread.data.messages.map((m) => (
            <li key={m.id} className={`requests-thread__message is-${m.side}`}>
              <Typography.Text strong>{m.side === 'practice' ? `${m.author_name} (the practice)` : m.author_name}</Typography.Text>{' '}
              <Typography.Text type="secondary">{formatDateTime(m.created_at)}</Typography.Text>
              <p className="requests-thread__body">{m.body}</p>
              {m.attachments.length > 0 && <p>Attached (in documents): {m.attachments.map((a) => a.filename).join(', ')}</p>}
            </li>
          ))}
        </ol>
      )}
      <Flex vertical gap={8}>
        <label htmlFor={textId}>Your message</label>
        <Input.TextArea id={textId} value={text} onChange={(e) => setText(e.target.value)} rows={3} maxLength={10000} />
        <label htmlFor={fileId}>Attach a file (optional)</label>
        <input id={fileId} ref={fileRef} type="file" accept=".pdf,.jpg,.jpeg,.png,.gif,.xlsx,.xls,.csv" />
        <div>
          <Button type="primary" onClick={() => void send()} loading={posting.isLoading} disabled={!text.trim()}>
            Send message
          </Button>
        </div>
      </Flex>
    </Card>
  );
}

import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Skeleton, Tag, Timeline, Typography } from 'antd';
import { formatDateTime, TIMELINE_KINDS, type TimelineEntry } from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useAddNoteMutation, useTimelineQuery } from './api';

const KIND_LABEL = Object.fromEntries(TIMELINE_KINDS.map((k) => [k.value, k.label])) as Record<TimelineEntry['kind'], string>;
const KIND_COLOUR: Partial<Record<TimelineEntry['kind'], string>> = {
  payment: 'green',
  payment_failed: 'red',
  subscription_cancelled: 'red',
  letter_signed: 'green',
  aml_approved: 'green',
  aml_returned: 'orange',
  deadline_done: 'green',
  deadline_reopened: 'orange',
  note: 'gray',
};

/**
 * Everything that happened to the client in every service, newest first: crm's read model, built
 * from the services' events (not by calling each service per view). Notes can be added here.
 */
export function ClientTimeline({ clientId, realm, canAddNote = true }: { clientId: string; realm: AuthRealm; canAddNote?: boolean }) {
  const [before, setBefore] = useState<string | undefined>(undefined);
  const [older, setOlder] = useState<TimelineEntry[]>([]);
  const first = useTimelineQuery({ id: clientId, realm });
  const more = useTimelineQuery({ id: clientId, realm, before }, { skip: !before });
  const [addNote, adding] = useAddNoteMutation();
  const [form] = Form.useForm<{ text: string }>();
  const toast = useToast();

  if (first.isLoading) return <Skeleton active />;
  if (first.isError)
    return <Alert type="error" showIcon title={serverText(errorBody(first.error)?.message ?? 'The timeline could not be loaded')} />;

  const entries = [...(first.data?.entries ?? []), ...older, ...(before && more.currentData ? more.currentData.entries : [])];
  const nextCursor = before ? (more.currentData?.next_cursor ?? null) : (first.data?.next_cursor ?? null);

  return (
    <Flex vertical gap={16}>
      {canAddNote && (
        <Form
          form={form}
          layout="vertical"
          onFinish={({ text }) =>
            addNote({ id: clientId, text: text.trim(), realm })
              .unwrap()
              .then(
                (r) => {
                  form.resetFields();
                  toast.success(serverText(r.message), 'note');
                },
                (e) => toast.error(serverText(errorBody(e)?.message ?? 'The note could not be added'), 'note'),
              )
          }
        >
          <Form.Item name="text" label="Add a note" rules={[{ required: true, whitespace: true, message: 'Write the note first' }]}>
            <Input.TextArea rows={2} maxLength={4000} />
          </Form.Item>
          <Button htmlType="submit" loading={adding.isLoading}>
            Add note
          </Button>
        </Form>
      )}
      {entries.length === 0 ? (
        <Typography.Text type="secondary">Nothing has happened yet.</Typography.Text>
      ) : (
        <Timeline
          className="client-timeline"
          items={entries.map((e) => ({
            key: e.id,
            color: KIND_COLOUR[e.kind] ?? 'blue',
            content: (
              <div data-timeline-kind={e.kind}>
                <Flex wrap gap={8} align="baseline">
                  <Tag>{KIND_LABEL[e.kind] ?? e.kind}</Tag>
                  <Typography.Text type="secondary">{formatDateTime(e.at)}</Typography.Text>
                </Flex>
                <div>{e.summary}</div>
                {e.actor_name && <Typography.Text type="secondary">by {e.actor_name}</Typography.Text>}
              </div>
            ),
          }))}
        />
      )}
      {nextCursor && (
        <Button
          loading={more.isFetching}
          onClick={() => {
            if (before && more.currentData) setOlder((o) => [...o, ...more.currentData!.entries]);
            setBefore(nextCursor);
          }}
        >
          Show older
        </Button>
      )}
    </Flex>
  );
}

import { useId, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  List,
  Result,
  Select,
  Skeleton,
  Tag,
  Typography,
} from 'antd';
import { Link, useParams } from 'react-router-dom';
import { deadlineKindLabel, FILED_STAGE, formatDate, formatDateTime, jobKindLabel } from '@countinghouse/proto';
import { errorBody, httpStatus, type AuthRealm } from '../../app/api';
import { PageHeader } from '../../shared/PageHeader';
import { serverText, useToast } from '../../shared/toast';
import { ClientDocumentsView } from '../documents/ClientDocumentsView';
import { ClientRequestsTab } from '../workspace/ClientRequestsTab';
import { usePageTitle } from '../../shared/use-page-title';
import {
  useAddJobNoteMutation,
  useCapacityQuery,
  useChangeJobMutation,
  useClientJobQuery,
  useJobTimerQuery,
  useMoveJobMutation,
  useRecordJobTimeMutation,
  useStartJobTimerMutation,
  useStopJobTimerMutation,
  useTickJobItemMutation,
} from './client-jobs-api';
import { hours } from './JobBoard';
import './client-jobs.css';

interface Props {
  realm: AuthRealm;
  /** The jobs page this job sits under (the back link). */
  back: string;
  /** The client record's base: /admin or /work. */
  recordBase: '/admin' | '/work';
}

/** One job (issue 29): its stage, checklist, notes, time (manual and timer), linked deadline, reassign, and the client's requests and documents. */
export function JobPage({ realm, back, recordBase }: Props) {
  const { id = '' } = useParams();
  const job = useClientJobQuery({ id, realm });
  usePageTitle(job.data ? job.data.job.title : 'Job');
  const toast = useToast();
  const [move, moving] = useMoveJobMutation();
  const [change] = useChangeJobMutation();
  const [tick] = useTickJobItemMutation();
  const [addNote, addingNote] = useAddJobNoteMutation();
  const [recordTime, recording] = useRecordJobTimeMutation();
  const timer = useJobTimerQuery({ realm });
  const [startTimer] = useStartJobTimerMutation();
  const [stopTimer] = useStopJobTimerMutation();
  const people = useCapacityQuery({ weeks: 1, realm });
  const [stage, setStage] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [note, setNote] = useState('');
  const [timeForm] = Form.useForm<{ minutes: number; worked_on: string; note?: string }>();
  const stageId = useId();
  const assigneeId = useId();

  const fail = (e: unknown, fallback: string) => toast.error(serverText(errorBody(e)?.message ?? fallback));

  if (job.isError)
    return httpStatus(job.error) === 404 || httpStatus(job.error) === 403 ? (
      <Result status="404" title={errorBody(job.error)?.message ?? 'Job not found'} extra={<Link to={back}>Back to jobs</Link>} />
    ) : (
      <Alert type="error" showIcon title="The job could not be loaded" />
    );
  if (!job.data) return <Skeleton active />;
  const { job: j, checklist, notes, time, deadline, stages } = job.data;
  const target = stage ?? stages.find((s) => s !== j.stage) ?? j.stage;
  const running = timer.data?.timer;
  const filed = j.status === 'filed';

  const doMove = async () => {
    try {
      await move({ id, body: { stage: target, ...(target === FILED_STAGE ? { reference: reference.trim() } : {}) }, realm }).unwrap();
      toast.success(serverText(`Moved to ${target}`));
      setStage(null);
    } catch (e) {
      fail(e, 'The job could not be moved');
    }
  };

  return (
    <Flex vertical gap={16}>
      <Link to={back}>Back to jobs</Link>
      <PageHeader
        title={j.title}
        subtitle={
          <>
            {jobKindLabel(j.kind)} · <Link to={`${recordBase}/clients/${j.client_id}`}>{j.client_name}</Link>
          </>
        }
      />
      <Card title="Where it stands">
        <Descriptions
          column={{ xs: 1, sm: 2 }}
          items={[
            { key: 's', label: 'Stage', children: filed ? <Tag color="green">Filed</Tag> : j.stage },
            {
              key: 'd',
              label: 'Due (internal target)',
              children: (
                <>
                  {formatDate(j.due_on)} {j.overdue && <Tag color="red">Overdue</Tag>}
                </>
              ),
            },
            { key: 'st', label: 'Statutory date', children: j.statutory_due_on ? formatDate(j.statutory_due_on) : 'None' },
            { key: 'a', label: 'Assignee', children: j.assignee_name ?? 'Unassigned' },
            { key: 'r', label: 'Reviewer', children: j.reviewer_name ?? 'Not yet' },
            ...(j.waiting_request ? [{ key: 'w', label: 'Waiting on the client', children: `Request open: ${j.waiting_request}` }] : []),
            { key: 'b', label: 'Budget used', children: `${hours(j.used_minutes)} of ${hours(j.budget_minutes)}` },
            ...(filed
              ? [{ key: 'f', label: 'Filed', children: `${formatDate(job.data.filed_on)}, reference ${job.data.reference ?? 'none'}` }]
              : []),
          ]}
        />
        {!filed && (
          <Flex wrap gap={12} align="end" style={{ marginTop: 12 }}>
            <label htmlFor={stageId}>Move to</label>
            <Select
              id={stageId}
              value={target}
              onChange={setStage}
              options={stages.filter((s) => s !== j.stage).map((s) => ({ value: s, label: s }))}
              style={{ minWidth: 220 }}
            />
            {target === FILED_STAGE && (
              <Input
                aria-label="Filing reference"
                placeholder="Filing reference"
                value={reference}
                onChange={(e) => setReference(e.target.value)}
                style={{ maxWidth: 220 }}
              />
            )}
            <Button type="primary" loading={moving.isLoading} onClick={() => void doMove()}>
              Move
            </Button>
            <Checkbox
              checked={j.waiting_on_client}
              onChange={(e) =>
                void change({ id, body: { waiting_on_client: e.target.checked }, realm })
                  .unwrap()
                  .catch((x: unknown) => fail(x, 'Not saved'))
              }
            >
              Waiting on the client
            </Checkbox>
            {people.data && people.data.people.length > 1 && (
              <>
                <label htmlFor={assigneeId}>Assignee</label>
                <Select
                  id={assigneeId}
                  value={j.assignee_id ?? undefined}
                  placeholder="Unassigned"
                  onChange={(v: string) =>
                    void change({ id, body: { assignee_id: v }, realm })
                      .unwrap()
                      .catch((x: unknown) => fail(x, 'Not reassigned'))
                  }
                  options={people.data.people.map((p) => ({ value: p.user_id, label: p.name }))}
                  style={{ minWidth: 200 }}
                />
              </>
            )}
          </Flex>
        )}
      </Card>

      <Card title="Checklist">
        {checklist.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No checklist items" />
        ) : (
          <List
            dataSource={checklist.map((c, index) => ({ ...c, index }))}
            renderItem={(c) => (
              <List.Item>
                <Checkbox
                  checked={c.done}
                  onChange={(e) =>
                    void tick({ id, index: c.index, done: e.target.checked, realm })
                      .unwrap()
                      .catch((x: unknown) => fail(x, 'Not saved'))
                  }
                >
                  <Typography.Text type="secondary">{c.stage}:</Typography.Text> {c.item}
                  {c.done_by_name && <Typography.Text type="secondary"> (done by {c.done_by_name})</Typography.Text>}
                </Checkbox>
              </List.Item>
            )}
          />
        )}
      </Card>

      <Card title="Linked deadline">
        {deadline ? (
          <Typography.Text>
            {deadlineKindLabel(deadline.kind)}, {deadline.period}, due {formatDate(deadline.due_on)}:{' '}
            {deadline.done ? <Tag color="green">Done{deadline.reference ? `, reference ${deadline.reference}` : ''}</Tag> : <Tag>Open</Tag>}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">This job has no statutory deadline.</Typography.Text>
        )}
      </Card>

      <Card title="Time">
        <Flex wrap gap={12} align="center" style={{ marginBottom: 12 }}>
          {running && running.job_id === id ? (
            <Button
              danger
              onClick={() =>
                void stopTimer({ realm, jobId: id })
                  .unwrap()
                  .then(
                    (r) => toast.success(serverText(`${r.entry?.minutes ?? 0} minutes recorded`)),
                    (x: unknown) => fail(x, 'The timer could not be stopped'),
                  )
              }
            >
              Stop timer (started {formatDateTime(running.started_at)})
            </Button>
          ) : (
            <Button
              disabled={Boolean(running)}
              onClick={() =>
                void startTimer({ id, realm })
                  .unwrap()
                  .catch((x: unknown) => fail(x, 'The timer could not be started'))
              }
            >
              Start timer
            </Button>
          )}
          {running && running.job_id !== id && <Typography.Text type="secondary">A timer is running on {running.title}.</Typography.Text>}
        </Flex>
        <Form
          form={timeForm}
          layout="inline"
          initialValues={{ worked_on: job.data.today }}
          onFinish={(v) =>
            void recordTime({ id, body: { minutes: v.minutes, worked_on: v.worked_on, ...(v.note ? { note: v.note } : {}) }, realm })
              .unwrap()
              .then(
                () => {
                  toast.success(serverText('Time recorded'));
                  timeForm.resetFields(['minutes', 'note']);
                },
                (x: unknown) => fail(x, 'Time not recorded'),
              )
          }
        >
          <Form.Item name="minutes" label="Minutes" rules={[{ required: true, message: 'Enter the minutes' }]}>
            <InputNumber min={1} max={1440} precision={0} />
          </Form.Item>
          <Form.Item name="worked_on" label="Day" rules={[{ required: true, message: 'Enter the day' }]}>
            <Input type="date" max={job.data.today} />
          </Form.Item>
          <Form.Item name="note" label="Note">
            <Input maxLength={500} />
          </Form.Item>
          <Button htmlType="submit" loading={recording.isLoading}>
            Record time
          </Button>
        </Form>
        <List
          style={{ marginTop: 12 }}
          locale={{ emptyText: 'No time recorded yet' }}
          dataSource={time}
          renderItem={(t) => (
            <List.Item>
              {formatDate(t.worked_on)} · {t.user_name} · {t.minutes} min{t.source === 'timer' ? ' (timer)' : ''}
              {t.note ? ` · ${t.note}` : ''}
            </List.Item>
          )}
        />
      </Card>

      <Card title="Notes">
        <Flex vertical gap={8}>
          <Input.TextArea
            aria-label="New note"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={5000}
            autoSize={{ minRows: 2 }}
          />
          <Button
            style={{ alignSelf: 'flex-start' }}
            disabled={note.trim() === ''}
            loading={addingNote.isLoading}
            onClick={() =>
              void addNote({ id, text: note, realm })
                .unwrap()
                .then(
                  () => setNote(''),
                  (x: unknown) => fail(x, 'Note not added'),
                )
            }
          >
            Add note
          </Button>
          <List
            locale={{ emptyText: 'No notes yet' }}
            dataSource={notes}
            renderItem={(n) => (
              <List.Item>
                <Typography.Text>{n.text}</Typography.Text>{' '}
                <Typography.Text type="secondary">
                  — {n.by_name}, {formatDateTime(n.at)}
                </Typography.Text>
              </List.Item>
            )}
          />
        </Flex>
      </Card>

      <Card title="Requests to the client">
        <ClientRequestsTab clientId={j.client_id} realm={realm} />
      </Card>

      <Card title="The client's documents">
        <ClientDocumentsView clientId={j.client_id} realm={realm === 'user' ? 'user' : 'admin'} hideClientColumn />
      </Card>
    </Flex>
  );
}

import { useId, useState, type DragEvent } from 'react';
import { Alert, Button, Checkbox, Empty, Flex, Input, Modal, Select, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { FILED_STAGE, formatDate, JOB_KINDS, type JobKind, type JobSummary } from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useJobBoardQuery, useMoveJobMutation } from './client-jobs-api';

export const hours = (minutes: number) => `${(minutes / 60).toFixed(1)} h`;

export interface JobsViewProps {
  realm: AuthRealm;
  /** Where the job page lives: /admin/client-jobs or /work/jobs. */
  base: string;
}

/** One card: client, job, due, assignee, budget used; dragged by mouse, or moved with its "Move to" list and button. */
function JobCard({
  job,
  stages,
  base,
  onMove,
}: {
  job: JobSummary;
  stages: string[];
  base: string;
  onMove: (job: JobSummary, stage: string) => void;
}) {
  const others = stages.filter((s) => s !== job.stage);
  const [target, setTarget] = useState(others[0] ?? '');
  const selectId = useId();
  const over = job.used_minutes > job.budget_minutes;
  return (
    <article
      className="job-card"
      draggable
      data-job-id={job.id}
      aria-label={`${job.client_name}: ${job.title}`}
      onDragStart={(e) => {
        e.dataTransfer.setData('text/plain', job.id);
        e.dataTransfer.effectAllowed = 'move';
      }}
    >
      <Link to={`${base}/${job.id}`} className="job-card__title">
        {job.client_name}
      </Link>
      <Typography.Text type="secondary" className="job-card__line">
        {job.period ?? job.title}
      </Typography.Text>
      <div className="job-card__line">
        Due {formatDate(job.due_on)} {job.overdue && <Tag color="red">Overdue</Tag>}
        {job.waiting_on_client && (
          <Tag color="gold">{job.waiting_request ? `Waiting on client: ${job.waiting_request}` : 'Waiting on client'}</Tag>
        )}
      </div>
      <div className="job-card__line">{job.assignee_name ?? 'Unassigned'}</div>
      <div className={over ? 'job-card__line job-card__over' : 'job-card__line'}>
        {hours(job.used_minutes)} of {hours(job.budget_minutes)} used
      </div>
      <Flex gap={4} className="job-card__move">
        <label htmlFor={selectId} className="client-jobs__sr">
          Move {job.client_name} to
        </label>
        <select id={selectId} className="job-card__select" value={target} onChange={(e) => setTarget(e.target.value)}>
          {others.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <Button size="small" onClick={() => onMove(job, target)} aria-label={`Move ${job.client_name} to ${target}`}>
          Move
        </Button>
      </Flex>
    </article>
  );
}

/**
 * The board (issue 29): one column per stage of a kind's pipeline; cards move by drag and drop, or by
 * keyboard (each card's "Move to" list and button). Filed asks for the filing reference first.
 */
export function JobBoard({ realm, base }: JobsViewProps) {
  const [kind, setKind] = useState<JobKind>('year_end_accounts');
  const [mine, setMine] = useState(false);
  const board = useJobBoardQuery({ kind, mine, realm });
  const [move] = useMoveJobMutation();
  const toast = useToast();
  const [filing, setFiling] = useState<JobSummary | null>(null);
  const [reference, setReference] = useState('');
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const kindId = useId();

  const stages = [...(board.data?.columns.map((c) => c.stage) ?? []), FILED_STAGE];

  const doMove = async (job: JobSummary, stage: string, ref?: string) => {
    if (stage === job.stage) return;
    if (stage === FILED_STAGE && ref === undefined) {
      setReference('');
      setFiling(job);
      return;
    }
    try {
      const r = await move({ id: job.id, body: { stage, ...(ref ? { reference: ref } : {}) }, realm }).unwrap();
      toast.success(serverText(`${job.client_name} moved to ${r.job.stage}`));
      setFiling(null);
    } catch (e) {
      toast.error(serverText(errorBody(e)?.message ?? 'The job could not be moved'));
    }
  };

  const onDrop = (stage: string) => (e: DragEvent) => {
    e.preventDefault();
    setDropTarget(null);
    const id = e.dataTransfer.getData('text/plain');
    const job = board.data?.columns.flatMap((c) => c.jobs).find((j) => j.id === id);
    if (job) void doMove(job, stage);
  };

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={12} align="center">
        <label htmlFor={kindId}>Kind of work</label>
        <Select
          id={kindId}
          value={kind}
          onChange={setKind}
          options={JOB_KINDS.map((k) => ({ value: k.value, label: k.label }))}
          style={{ minWidth: 220 }}
        />
        <Checkbox checked={mine} onChange={(e) => setMine(e.target.checked)}>
          Only my jobs
        </Checkbox>
      </Flex>
      {board.isError && <Alert type="error" showIcon title="The board could not be loaded" />}
      {board.isLoading ? (
        <Skeleton active />
      ) : (
        <div className="job-board" role="region" aria-label="Jobs board">
          {board.data?.columns.map((col) => (
            <section
              key={col.stage}
              className={dropTarget === col.stage ? 'job-board__column job-board__column--target' : 'job-board__column'}
              aria-label={`${col.stage}: ${col.total} jobs`}
              data-stage={col.stage}
              onDragOver={(e) => {
                e.preventDefault();
                setDropTarget(col.stage);
              }}
              onDragLeave={() => setDropTarget(null)}
              onDrop={onDrop(col.stage)}
            >
              <Typography.Title level={2} className="job-board__heading">
                {col.stage} <span className="job-board__count">{col.total}</span>
              </Typography.Title>
              {col.jobs.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No jobs" />
              ) : (
                col.jobs.map((j) => <JobCard key={j.id} job={j} stages={stages} base={base} onMove={(job, s) => void doMove(job, s)} />)
              )}
            </section>
          ))}
        </div>
      )}
      <Modal
        open={filing !== null}
        title="File the job"
        okText="Mark filed"
        onCancel={() => setFiling(null)}
        onOk={() => filing && void doMove(filing, FILED_STAGE, reference.trim())}
        okButtonProps={{ disabled: filing?.deadline_id ? reference.trim() === '' : false }}
      >
        <Typography.Paragraph>
          Filing {filing?.client_name}’s job marks its deadline done with today’s date and this reference.
        </Typography.Paragraph>
        <label>
          Filing reference
          <Input value={reference} onChange={(e) => setReference(e.target.value)} maxLength={100} aria-label="Filing reference" />
        </label>
      </Modal>
    </Flex>
  );
}

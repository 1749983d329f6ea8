import { useState } from 'react';
import { Alert, Button, Card, Empty, Flex, Form, InputNumber, Progress, Select, Table, Tag, Typography } from 'antd';
import {
  formatDate,
  formatDateTime,
  RETENTION_TRIGGERS,
  type RetentionRule,
  type RetentionRun,
  type SubjectAccess,
} from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { PageHeader } from '../../shared/PageHeader';
import { ResponsiveTabs } from '../../shared/ResponsiveTabs';
import { usePageTitle } from '../../shared/use-page-title';
import { useClientsQuery } from '../crm/api';
import { AuditTrail } from './AuditTrail';
import {
  RECORDS_ROUTES,
  useChangeRuleMutation,
  useLogSubjectAccessMutation,
  useRetentionScheduleQuery,
  useRunRetentionMutation,
  useSubjectAccessQuery,
} from './api';

const TRIGGER_LABEL = Object.fromEntries(RETENTION_TRIGGERS.map((t) => [t.value, t.label]));

/** The back office's records page (administrators): the audit trail, subject-access requests, retention. */
export function RecordsPage() {
  usePageTitle('Audit and records');
  const tabs = [
    { key: 'audit', label: 'Audit trail', children: <AuditTrail canExport /> },
    { key: 'sar', label: 'Subject-access requests', children: <SubjectAccessPanel /> },
    { key: 'retention', label: 'Retention', children: <RetentionPanel /> },
  ];
  return (
    <Flex vertical gap={16}>
      <PageHeader
        title="Audit and records"
        subtitle="Who changed or viewed clients' records, people's data on request, and what is kept how long."
      />
      <ResponsiveTabs items={tabs} defaultActiveKey="audit" label="Section" />
    </Flex>
  );
}

const SAR_STATUS: Record<SubjectAccess['status'], { text: string; colour: string }> = {
  gathering: { text: 'Gathering', colour: 'gold' },
  ready: { text: 'Ready to download', colour: 'green' },
  downloaded: { text: 'Downloaded', colour: 'default' },
};

function SubjectAccessPanel() {
  const list = useSubjectAccessQuery(undefined, { pollingInterval: 3000 });
  const clients = useClientsQuery({ page: 1, page_size: 100, realm: 'admin' });
  const [log, logged] = useLogSubjectAccessMutation();
  const [clientId, setClientId] = useState<string | undefined>();
  const people = (clients.data?.clients ?? []).filter((c) => c.user_id);
  const chosen = people.find((c) => c.id === clientId);

  const submit = async () => {
    if (!chosen) return;
    await log({ client_id: chosen.id, user_id: chosen.user_id!, person_name: chosen.contact_name || chosen.contact_email });
    setClientId(undefined);
    void list.refetch();
  };

  return (
    <Flex vertical gap={16}>
      <Card size="small" title="Log a subject-access request">
        <Form layout="inline" onFinish={() => void submit()} aria-label="Log a subject-access request">
          <Form.Item label="Person (the client's user)" htmlFor="sar-person">
            <Select
              id="sar-person"
              showSearch
              optionFilterProp="label"
              value={clientId}
              onChange={setClientId}
              placeholder="Choose a client user"
              style={{ minWidth: 260 }}
              options={people.map((c) => ({ value: c.id, label: `${c.contact_name || c.contact_email} (${c.company_name})` }))}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" disabled={!chosen} loading={logged.isLoading}>
              Log request
            </Button>
          </Form.Item>
        </Form>
        <Typography.Paragraph type="secondary" className="records__note">
          The answer is due one month from the day the request is logged (UK GDPR Art. 12(3)).
        </Typography.Paragraph>
        {logged.isError && <Alert type="error" showIcon message={errorBody(logged.error)?.message ?? 'The request could not be logged.'} />}
      </Card>
      <Table<SubjectAccess>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.requests ?? []}
        scroll={{ x: true }}
        locale={{ emptyText: <Empty description="No subject-access requests yet." /> }}
        pagination={false}
        columns={[
          { title: 'Person', key: 'person', render: (_, r) => `${r.person_name}${r.company_name ? ` (${r.company_name})` : ''}` },
          { title: 'Requested', dataIndex: 'requested_on', key: 'req', render: (v: string) => formatDate(v) },
          { title: 'Due by', dataIndex: 'due_on', key: 'due', render: (v: string) => formatDate(v) },
          {
            title: 'Progress',
            key: 'progress',
            render: (_, r) => (
              <Flex vertical gap={4}>
                <Tag color={SAR_STATUS[r.status].colour}>{SAR_STATUS[r.status].text}</Tag>
                {r.status === 'gathering' && (
                  <Progress
                    percent={Math.round((100 * r.answered) / r.expected)}
                    size="small"
                    aria-label={`${r.answered} of ${r.expected} services answered`}
                  />
                )}
              </Flex>
            ),
          },
          {
            title: 'Archive',
            key: 'archive',
            render: (_, r) =>
              r.status === 'ready' ? (
                <a href={RECORDS_ROUTES.download(r.id)} download onClick={() => setTimeout(() => void list.refetch(), 1500)}>
                  Download (once)
                </a>
              ) : r.status === 'downloaded' ? (
                `By ${r.downloaded_by_name ?? 'unknown'}, ${formatDateTime(r.downloaded_at)}`
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Flex>
  );
}

function RetentionPanel() {
  const schedule = useRetentionScheduleQuery();
  const [change, changed] = useChangeRuleMutation();
  const [run, ran] = useRunRetentionMutation();
  const [years, setYears] = useState<Record<string, number>>({});
  const [lastRun, setLastRun] = useState<RetentionRun | null>(null);

  return (
    <Flex vertical gap={16}>
      {changed.isError && <Alert type="error" showIcon message={errorBody(changed.error)?.message ?? 'Not saved.'} />}
      <Table<RetentionRule>
        rowKey="record_type"
        size="small"
        loading={schedule.isLoading}
        dataSource={schedule.data?.rules ?? []}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          { title: 'Records', dataIndex: 'label', key: 'label' },
          {
            title: 'Kept for (years)',
            key: 'years',
            render: (_, r) => (
              <InputNumber
                aria-label={`Years to keep ${r.label}`}
                min={r.minimum_years}
                max={100}
                value={years[r.record_type] ?? r.years}
                onChange={(v) => setYears({ ...years, [r.record_type]: Number(v ?? r.years) })}
              />
            ),
          },
          { title: 'Counted from', dataIndex: 'trigger', key: 'trigger', render: (v: string) => TRIGGER_LABEL[v] },
          { title: 'Legal minimum', dataIndex: 'basis', key: 'basis' },
          {
            title: '',
            key: 'save',
            render: (_, r) => (
              <Button
                disabled={(years[r.record_type] ?? r.years) === r.years}
                onClick={() =>
                  void change({ recordType: r.record_type, body: { years: years[r.record_type] ?? r.years, trigger: r.trigger } })
                }
              >
                Save
              </Button>
            ),
          },
        ]}
      />
      <Flex gap={8} wrap>
        <Button onClick={() => void run({ dry_run: true }).unwrap().then(setLastRun)} loading={ran.isLoading}>
          Dry run: what would go today
        </Button>
      </Flex>
      {lastRun && (
        <Card size="small" title={`${lastRun.dry_run ? 'Dry run' : 'Run'} for ${formatDate(lastRun.day)}`}>
          {lastRun.decisions.length === 0 ? (
            <Empty description="Nothing has passed its retention period." />
          ) : (
            <ul className="records__decisions">
              {lastRun.decisions.map((d) => (
                <li key={`${d.client_id}:${d.record_type}`}>
                  {d.company_name ?? d.client_id}: {d.record_type.replace('_', ' ')}. {d.reason}
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
      <Typography.Text type="secondary">
        The daily run erases what has expired in every service; a client under a legal hold keeps everything.
      </Typography.Text>
    </Flex>
  );
}

import { useState } from 'react';
import { Alert, Button, Card, Empty, Flex, Form, InputNumber, Progress, Select, Table, Tag, Typography } from 'antd';
import {
  formatDate,
  formatDateTime,
  RETENTION_TRIGGERS,
  type RetentionRule,
  PERSON_ROLES,
  type AmlVersion,
  type Client,
  type RetentionRun,
  type SubjectAccess,
  type SubjectAccessBody,
} from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { PageHeader } from '../../shared/PageHeader';
import { ResponsiveTabs } from '../../shared/ResponsiveTabs';
import { usePageTitle } from '../../shared/use-page-title';
import { useAmlFileQuery } from '../aml/api';
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

/** Who a request can be for: the client's user, its contact, or a director or PSC in its AML file. */
type SubjectChoice = { value: string; label: string; body: Omit<SubjectAccessBody, 'client_id'> };

function subjectChoices(client: Client | undefined, people: AmlVersion['people']): SubjectChoice[] {
  if (!client) return [];
  const out: SubjectChoice[] = [];
  const contact = client.contact_name || client.contact_email;
  if (client.user_id)
    out.push({
      value: 'user',
      label: `${contact} (the client's user)`,
      body: { subject: 'client_user', user_id: client.user_id, person_name: contact },
    });
  if (contact) out.push({ value: 'contact', label: `${contact} (contact)`, body: { subject: 'contact', person_name: contact } });
  for (const p of people)
    out.push({
      value: `person:${p.id}`,
      label: `${p.name} (${ROLE_LABEL[p.role] ?? p.role}${p.ceased_on ? `, until ${formatDate(p.ceased_on)}` : ''})`,
      body: { subject: 'person', person_key: p.id, person_name: p.name },
    });
  return out;
}

const SUBJECT_LABEL: Record<SubjectAccess['subject'], string> = {
  client_user: "the client's user",
  contact: 'contact',
  person: 'in the AML file',
};

const ROLE_LABEL: Record<string, string> = Object.fromEntries(PERSON_ROLES.map((r) => [r.value, r.label]));

function SubjectAccessPanel() {
  const list = useSubjectAccessQuery(undefined, { pollingInterval: 3000 });
  const clients = useClientsQuery({ page: 1, page_size: 100, realm: 'admin' });
  const [log, logged] = useLogSubjectAccessMutation();
  const [clientId, setClientId] = useState<string | undefined>();
  const [subject, setSubject] = useState<string | undefined>();
  const client = (clients.data?.clients ?? []).find((c) => c.id === clientId);
  // The client's people: the AML file's directors, PSCs and others (Companies House's, and those added by hand).
  const file = useAmlFileQuery({ clientId: clientId ?? '', realm: 'admin' }, { skip: !clientId });
  const choices = subjectChoices(client, clientId && file.data ? file.data.current.people : []);
  const chosen = choices.find((c) => c.value === subject);

  const submit = async () => {
    if (!client || !chosen) return;
    await log({ client_id: client.id, ...chosen.body });
    setSubject(undefined);
    void list.refetch();
  };

  return (
    <Flex vertical gap={16}>
      <Card size="small" title="Log a subject-access request">
        <Form layout="inline" onFinish={() => void submit()} aria-label="Log a subject-access request">
          <Form.Item label="Client" htmlFor="sar-client">
            <Select
              id="sar-client"
              showSearch
              optionFilterProp="label"
              value={clientId}
              onChange={(v: string) => {
                setClientId(v);
                setSubject(undefined);
              }}
              placeholder="Choose a client"
              style={{ minWidth: 240 }}
              options={(clients.data?.clients ?? []).map((c) => ({ value: c.id, label: c.company_name }))}
            />
          </Form.Item>
          <Form.Item label="Person" htmlFor="sar-person">
            <Select
              id="sar-person"
              showSearch
              optionFilterProp="label"
              value={subject}
              onChange={setSubject}
              disabled={!client}
              loading={file.isFetching}
              placeholder="The client's user, contact, a director or PSC"
              style={{ minWidth: 300 }}
              options={choices.map((c) => ({ value: c.value, label: c.label }))}
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
          {
            title: 'Person',
            key: 'person',
            render: (_, r) => `${r.person_name}, ${SUBJECT_LABEL[r.subject]}${r.company_name ? ` (${r.company_name})` : ''}`,
          },
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
                  {d.company_name ?? d.client_id}:{' '}
                  {schedule.data?.rules.find((r) => r.record_type === d.record_type)?.label ?? d.record_type.replace(/_/g, ' ')}. {d.reason}
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

import {
  AML_MESSAGES,
  AML_STATUSES,
  DD_LABELS,
  formatDate,
  formatDateTime,
  OWNERSHIP_BANDS,
  PERSON_ROLES,
  RISK_LABELS,
  RISK_QUESTIONS,
  VERIFICATION_METHODS,
  amlStatusLabel,
  type AmlStatus,
  type Person,
  type RiskAnswers,
  type IdentityPerson,
} from '@countinghouse/proto';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Drawer,
  Flex,
  Form,
  Input,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Timeline,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import type { AuthRealm } from '../../app/api';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { uploadFile } from '../documents/transfer';
import {
  useAddAmlEvidenceMutation,
  useAmlFileQuery,
  useAmlFilesQuery,
  useAmlVersionQuery,
  useAnswerAmlRiskMutation,
  useApproveAmlFileMutation,
  useRemoveAmlPersonMutation,
  useSubmitAmlFileMutation,
} from './api';
import { PersonFormModal } from './PersonForm';
import { useAmlReturnMutation } from '../workspace/api';
import { AcspVerificationsCard } from '../identity-verification/AcspParts';
import { useIdentityPeopleQuery } from '../identity-verification/api';
import { httpStatus } from '../../app/api';

const STATUS_COLOURS: Record<AmlStatus, string> = {
  not_started: 'default',
  in_progress: 'blue',
  awaiting_approval: 'gold',
  approved: 'green',
  review_due: 'orange',
  expired: 'red',
};
const label = <T extends { value: string; label: string }>(list: readonly T[], v: string) => list.find((x) => x.value === v)?.label ?? v;
const today = () => new Date().toISOString().slice(0, 10);

export function AmlStatusTag({ status }: { status: AmlStatus }) {
  return <Tag color={STATUS_COLOURS[status]}>{amlStatusLabel(status)}</Tag>;
}

/** Every current client's due diligence, filtered, with counts; a client opens its file. */
export function AmlWorkspace({
  realm = 'admin',
  initialStatus,
  openClientId,
}: {
  realm?: AuthRealm;
  /** A status filter to start with ('all', 'outstanding' or a status); anything else is ignored. */
  initialStatus?: string;
  /** A client whose file opens at once. */
  openClientId?: string;
}) {
  const [status, setStatus] = useState<string>(
    initialStatus && ['all', 'outstanding', ...AML_STATUSES.map((s) => s.value)].includes(initialStatus) ? initialStatus : 'outstanding',
  );
  const [risk, setRisk] = useState<string>('all');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(openClientId ?? null);
  const list = useAmlFilesQuery({ status: status as never, risk: risk as never, search: search || undefined, page, page_size: 25, realm });
  const c = list.data?.counts;
  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={16}>
        <Statistic title="Due diligence outstanding" value={c?.outstanding ?? 0} loading={list.isLoading} />
        {AML_STATUSES.map((s) => (
          <Statistic key={s.value} title={s.label} value={c?.by_status[s.value] ?? 0} loading={list.isLoading} />
        ))}
        <Statistic title="High risk" value={c?.by_risk.high ?? 0} loading={list.isLoading} />
      </Flex>
      <Flex wrap gap={8} role="search" aria-label="Filter AML files">
        <Input.Search
          aria-label="Search clients"
          placeholder="Search clients"
          allowClear
          onSearch={(v) => (setSearch(v.trim()), setPage(1))}
          style={{ width: 240 }}
        />
        <Select
          aria-label="Status"
          value={status}
          onChange={(v) => (setStatus(v), setPage(1))}
          style={{ width: 220 }}
          options={[
            { value: 'all', label: 'All statuses' },
            { value: 'outstanding', label: AML_MESSAGES.outstandingBadge },
            ...AML_STATUSES,
          ]}
        />
        <Select
          aria-label="Risk"
          value={risk}
          onChange={(v) => (setRisk(v), setPage(1))}
          style={{ width: 160 }}
          options={[
            { value: 'all', label: 'Any risk' },
            { value: 'low', label: 'Low' },
            { value: 'medium', label: 'Medium' },
            { value: 'high', label: 'High' },
            { value: 'none', label: 'Not assessed' },
          ]}
        />
      </Flex>
      {list.isError && <Alert type="error" title="The AML files could not be loaded." />}
      <Table
        rowKey="client_id"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: status === 'outstanding' ? 'No client has due diligence outstanding' : 'No clients match these filters' }}
        pagination={{ current: page, pageSize: 25, total: list.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          {
            title: 'Client',
            dataIndex: 'client_name',
            render: (v: string, r) => (
              <Button type="link" onClick={() => setOpen(r.client_id)} aria-label={`AML file of ${v}`}>
                {v}
              </Button>
            ),
          },
          { title: 'Status', dataIndex: 'status', render: (s: AmlStatus) => <AmlStatusTag status={s} /> },
          { title: 'Risk', dataIndex: 'risk_level', render: (r: string | null) => (r ? RISK_LABELS[r as 'low'] : '—') },
          { title: 'Next review', dataIndex: 'next_review_on', render: (d: string | null) => (d ? formatDate(d) : '—') },
          { title: 'Version', dataIndex: 'version' },
        ]}
      />
      {open && <AmlFileDrawer clientId={open} realm={realm} onClose={() => setOpen(null)} />}
    </Flex>
  );
}

function VersionView({ clientId, version, realm }: { clientId: string; version: number; realm: AuthRealm }) {
  const v = useAmlVersionQuery({ clientId, version, realm });
  const identity = useIdentityByKey(clientId, realm);
  if (v.isLoading) return <Typography.Text>Loading version {version}…</Typography.Text>;
  if (!v.data) return <Alert type="error" title="This version could not be loaded." />;
  return (
    <Card size="small" title={`Version ${version} (read only)`}>
      <PeopleTable people={v.data.people} identity={identity} />
      {v.data.risk && (
        <Typography.Paragraph>
          {RISK_LABELS[v.data.risk.level]} risk, {DD_LABELS[v.data.risk.due_diligence]}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

const IDV_COLOURS: Record<IdentityPerson['status'], string> = { verified: 'green', due: 'blue', overdue: 'red', unknown: 'default' };

/**
 * Each person's identity verification with Companies House (issue 30, item 6: one list of people shared by due
 * diligence and identity verification), by the person's key on the register; undefined when the caller's role
 * does not include the identity verification view (the column is then left out).
 */
function useIdentityByKey(clientId: string, realm: AuthRealm): Map<string, IdentityPerson> | undefined {
  const q = useIdentityPeopleQuery({ client_id: clientId, filter: 'all', page_size: 200, realm });
  // (a role without the view, or a client without Companies House people: no column)
  if ((q.isError && httpStatus(q.error) === 403) || !q.data?.people.length) return undefined;
  return new Map(q.data.people.map((p) => [p.person_key, p]));
}

function PeopleTable({
  people,
  action,
  identity,
}: {
  people: Person[];
  action?: (p: Person) => React.ReactNode;
  identity?: Map<string, IdentityPerson>;
}) {
  return (
    <Table
      rowKey="id"
      size="small"
      scroll={{ x: 'max-content' }}
      tableLayout="auto"
      pagination={false}
      dataSource={people}
      locale={{ emptyText: 'No people yet' }}
      columns={[
        {
          title: 'Name',
          dataIndex: 'name',
          render: (n: string, p) => (
            <>
              {n}
              {p.ceased_on && <Tag>Ceased {formatDate(p.ceased_on)}</Tag>}
            </>
          ),
        },
        { title: 'Role', dataIndex: 'role', render: (r: string) => label(PERSON_ROLES, r) },
        { title: 'Ownership', dataIndex: 'ownership_band', render: (b: string) => label(OWNERSHIP_BANDS, b) },
        { title: 'Source', dataIndex: 'source', render: (s: string) => (s === 'companies_house' ? 'Companies House' : 'Entered') },
        ...(identity
          ? [
              {
                title: 'ID verified (Companies House)',
                key: 'idv',
                render: (_: unknown, p: Person) => {
                  const v = p.person_key ? identity.get(p.person_key) : undefined;
                  if (!v)
                    return <Typography.Text type="secondary">{p.person_key ? 'Not yet read' : 'Not on the register'}</Typography.Text>;
                  return <Tag color={IDV_COLOURS[v.status]}>{v.status_text}</Tag>;
                },
              },
            ]
          : []),
        {
          title: 'Evidence',
          key: 'evidence',
          render: (_: unknown, p) =>
            p.evidence.length === 0 ? (
              <Tag color="red">None</Tag>
            ) : (
              p.evidence.map((e) => (
                <div key={e.id}>
                  {e.filename ?? 'Upload being processed'} · {label(VERIFICATION_METHODS, e.method)} · {e.checked_by_name},{' '}
                  {formatDate(e.checked_on)}
                </div>
              ))
            ),
        },
        ...(action ? [{ title: 'Actions', key: 'actions', fixed: 'right' as const, render: (_: unknown, p: Person) => action(p) }] : []),
      ]}
    />
  );
}

const RISK_DEFAULTS: RiskAnswers = {
  sector: 'standard',
  cash_intensive: false,
  jurisdiction: 'uk',
  pep: false,
  complex_structure: false,
  non_face_to_face: false,
  source_of_funds: 'clear',
};

/** A client's AML file in a drawer (the AML list); the client record shows AmlFileView in its AML tab. */
export function AmlFileDrawer({ clientId, realm, onClose }: { clientId: string; realm: AuthRealm; onClose: () => void }) {
  const f = useAmlFileQuery({ clientId, realm });
  return (
    <Drawer open onClose={onClose} size="large" title={f.data ? `AML file: ${f.data.client_name}` : 'AML file'} destroyOnHidden>
      <AmlFileView clientId={clientId} realm={realm} />
    </Drawer>
  );
}

/** A client's AML file: people and their evidence, the risk questions, approval, versions, audit trail. */
export function AmlFileView({ clientId, realm }: { clientId: string; realm: AuthRealm }) {
  const toast = useToast();
  const f = useAmlFileQuery({ clientId, realm });
  const identity = useIdentityByKey(clientId, realm);
  const [addEvidence] = useAddAmlEvidenceMutation();
  const [answerRisk, riskState] = useAnswerAmlRiskMutation();
  const [submit, submitState] = useSubmitAmlFileMutation();
  const [approve, approveState] = useApproveAmlFileMutation();
  const [returnFile, returnState] = useAmlReturnMutation();
  const [method, setMethod] = useState<'in_person' | 'video' | 'electronic'>('video');
  const [note, setNote] = useState('');
  const [viewVersion, setViewVersion] = useState<number | null>(null);
  const [personForm, setPersonForm] = useState<{ person: Person | null } | null>(null);
  const [removePerson] = useRemoveAmlPersonMutation();
  const fail = (err: unknown, fallback: string) => toast.error(serverText(errorBody(err)?.message ?? fallback), 'aml');
  const file = f.data;
  const editable = Boolean(file?.can.edit);

  async function upload(person: Person, fileToSend: File) {
    try {
      const reply = await uploadFile(
        {
          file: fileToSend,
          documentType: 'aml_evidence',
          clientId,
          description: `Identity evidence: ${person.name}`,
          onProgress: () => {},
        },
        realm === 'user' ? 'user' : 'admin',
      );
      await addEvidence({
        clientId,
        personId: person.id,
        evidence: { document_id: reply.documents[0]!.id, method, checked_on: today() },
        realm,
      }).unwrap();
      toast.success(serverText(`Evidence added for ${person.name}`), 'aml');
    } catch (err) {
      toast.error(serverText((err as Error).message || errorBody(err)?.message || 'The evidence could not be added'), 'aml');
    }
  }

  return (
    <>
      {f.isLoading && <Typography.Text>Loading…</Typography.Text>}
      {f.isError && <Alert type="error" title={serverText(errorBody(f.error)?.message ?? 'The file could not be loaded.')} />}
      {file && (
        <Flex vertical gap={16}>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label="Status">
              <AmlStatusTag status={file.status} /> {file.outstanding && <Tag color="red">{AML_MESSAGES.outstandingBadge}</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label="Version">
              {file.current.version} ({file.current.state.replace('_', ' ')})
              {file.approved_version ? `; version ${file.approved_version} approved` : ''}
            </Descriptions.Item>
            {file.company_number && <Descriptions.Item label="Company number">{file.company_number}</Descriptions.Item>}
            {file.current.next_review_on && (
              <Descriptions.Item label="Next review">{formatDate(file.current.next_review_on)}</Descriptions.Item>
            )}
            <Descriptions.Item label="Retention">{file.retention.reason}</Descriptions.Item>
          </Descriptions>
          {!editable && <Alert type="info" title={AML_MESSAGES.readOnly} />}
          {file.returned && (
            <Alert
              type="warning"
              showIcon
              title={`Returned by ${file.returned.by_name} on ${formatDate(file.returned.at)}`}
              description={file.returned.reason}
            />
          )}

          <Card
            size="small"
            title="People to verify"
            extra={
              editable ? (
                <Button size="small" type="primary" onClick={() => setPersonForm({ person: null })}>
                  Add person
                </Button>
              ) : undefined
            }
          >
            {personForm && (
              <PersonFormModal
                clientId={clientId}
                realm={realm}
                person={personForm.person}
                defaultRole={file.company_number ? 'director' : 'owner'}
                onClose={() => setPersonForm(null)}
              />
            )}
            {editable && (
              <Space style={{ marginBottom: 8 }} wrap>
                <span>How checked:</span>
                <Select
                  aria-label="Verification method"
                  value={method}
                  onChange={setMethod}
                  options={[...VERIFICATION_METHODS]}
                  style={{ width: 180 }}
                />
              </Space>
            )}
            <PeopleTable
              people={file.current.people}
              identity={identity}
              action={
                editable
                  ? (p) => (
                      <Flex gap={4} wrap>
                        <Upload showUploadList={false} accept=".pdf,.jpg,.jpeg,.png" beforeUpload={(fl) => (void upload(p, fl), false)}>
                          <Button size="small" aria-label={`Upload evidence for ${p.name}`}>
                            Upload evidence
                          </Button>
                        </Upload>
                        <Button size="small" aria-label={`Edit ${p.name}`} onClick={() => setPersonForm({ person: p })}>
                          Edit
                        </Button>
                        <Button
                          size="small"
                          danger
                          aria-label={`Remove ${p.name}`}
                          onClick={() =>
                            removePerson({ clientId, personId: p.id, realm })
                              .unwrap()
                              .then(
                                () => toast.success(serverText(`${p.name} removed`), 'aml'),
                                (e) => fail(e, 'The person could not be removed'),
                              )
                          }
                        >
                          Remove
                        </Button>
                      </Flex>
                    )
                  : undefined
              }
            />
          </Card>

          {/* The practice's own Companies House verifications (ACSP) of this company's directors and PSCs (issue #30). */}
          {file.company_number && <AcspVerificationsCard clientId={clientId} realm={realm} />}

          <Card size="small" title="Risk assessment">
            {file.current.risk && (
              <Alert
                type={file.current.risk.level === 'high' ? 'warning' : 'info'}
                title={`${RISK_LABELS[file.current.risk.level]} risk: ${DD_LABELS[file.current.risk.due_diligence]}, review every ${file.current.risk.review_years} year${file.current.risk.review_years > 1 ? 's' : ''}`}
                description={file.current.risk.reasons.join('; ') || undefined}
                style={{ marginBottom: 8 }}
              />
            )}
            <Form
              layout="vertical"
              disabled={!editable}
              initialValues={file.current.risk_answers ?? RISK_DEFAULTS}
              key={`${file.current.version}-${JSON.stringify(file.current.risk_answers)}`}
              onFinish={(answers: RiskAnswers) =>
                answerRisk({ clientId, answers, realm })
                  .unwrap()
                  .then(
                    () => toast.success(serverText('Risk assessment saved'), 'aml'),
                    (e) => fail(e, 'The answers could not be saved'),
                  )
              }
            >
              <Form.Item name="sector" label={RISK_QUESTIONS.sector.label}>
                <Select options={[...RISK_QUESTIONS.sector.options]} />
              </Form.Item>
              <Form.Item name="jurisdiction" label={RISK_QUESTIONS.jurisdiction.label}>
                <Select options={[...RISK_QUESTIONS.jurisdiction.options]} />
              </Form.Item>
              <Form.Item name="source_of_funds" label={RISK_QUESTIONS.source_of_funds.label}>
                <Select options={[...RISK_QUESTIONS.source_of_funds.options]} />
              </Form.Item>
              {(['cash_intensive', 'pep', 'complex_structure', 'non_face_to_face'] as const).map((k) => (
                <Form.Item key={k} name={k} valuePropName="checked" style={{ marginBottom: 4 }}>
                  <Checkbox>{RISK_QUESTIONS[k].label}</Checkbox>
                </Form.Item>
              ))}
              {editable && (
                <Button htmlType="submit" loading={riskState.isLoading}>
                  Save risk answers
                </Button>
              )}
            </Form>
          </Card>

          <Flex gap={8} wrap>
            {editable && file.current.state === 'draft' && (
              <Button
                type="primary"
                loading={submitState.isLoading}
                onClick={() =>
                  submit({ clientId, realm })
                    .unwrap()
                    .catch((e) => fail(e, 'The file could not be sent for approval'))
                }
              >
                Send for MLRO approval
              </Button>
            )}
          </Flex>
          {file.can.approve && (
            <Card size="small" title="MLRO sign-off">
              <Input.TextArea
                aria-label="Approval note or reason for returning"
                value={note}
                onChange={(e) => setNote(e.target.value)}
                rows={2}
                maxLength={2000}
              />
              <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
                Approve with a note, or return the file to the team with the reason.
              </Typography.Paragraph>
              <Flex gap={8} wrap style={{ marginTop: 8 }}>
                <Button
                  disabled={!note.trim()}
                  loading={returnState.isLoading}
                  onClick={() =>
                    returnFile({ clientId, reason: note.trim(), realm })
                      .unwrap()
                      .then(
                        () => {
                          setNote('');
                          toast.success(serverText('File returned with your reason'), 'aml');
                        },
                        (e) => fail(e, 'The file could not be returned'),
                      )
                  }
                >
                  Return with reason
                </Button>
                <Button
                  type="primary"
                  disabled={!note.trim()}
                  loading={approveState.isLoading}
                  onClick={() =>
                    approve({ clientId, note, realm })
                      .unwrap()
                      .then(
                        () => toast.success(serverText('Due diligence approved'), 'aml'),
                        (e) => fail(e, 'The file could not be approved'),
                      )
                  }
                >
                  Approve
                </Button>
              </Flex>
            </Card>
          )}

          <Card size="small" title="Versions">
            <Flex gap={8} wrap>
              {file.versions.map((v) => (
                <Button key={v.version} size="small" onClick={() => setViewVersion(v.version)}>
                  Version {v.version}: {v.state.replace('_', ' ')}
                  {v.approved_at ? `, ${formatDate(v.approved_at)}` : ''}
                </Button>
              ))}
            </Flex>
            {viewVersion !== null && <VersionView clientId={clientId} version={viewVersion} realm={realm} />}
          </Card>

          <Card size="small" title="Audit trail">
            <Timeline
              items={file.audit.map((a) => ({
                key: a.id,
                content: (
                  <span data-audit-action={a.action}>
                    {formatDateTime(a.at)} · {a.actor_name}: {a.detail}
                  </span>
                ),
              }))}
            />
          </Card>
        </Flex>
      )}
    </>
  );
}

import { useId, useState } from 'react';
import { Alert, Button, Card, Checkbox, Flex, Form, Input, Modal, Select, Table, Typography } from 'antd';
import {
  ACSP_MESSAGES,
  formatDate,
  formatDateTime,
  hasPermission,
  isPersonalCode,
  normalisePersonalCode,
  type AcspVerification,
  type PermissionKey,
  type Role,
} from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { selectAdminUser } from '../../app/admin-session';
import { useAppSelector } from '../../app/store';
import { serverText, useToast } from '../../shared/toast';
import { useMeQuery } from '../auth/api';
import { useAmlFileQuery } from '../aml/api';
import {
  useAcspSettingsQuery,
  useAcspVerificationsQuery,
  useDeleteAcspVerificationMutation,
  useRecordAcspVerificationMutation,
  useSaveAcspSettingsMutation,
} from './api';

const today = () => new Date().toISOString().slice(0, 10);
const fold = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');

/** Whether the signed-in person (admin realm: the admin user's role; the staff portal: /auth/me's roles) holds a permission. */
export function useCan(key: PermissionKey, realm: AuthRealm = 'admin'): boolean {
  const admin = useAppSelector(selectAdminUser);
  const me = useMeQuery(undefined, { skip: realm !== 'user' });
  const roles: readonly Role[] = realm === 'user' ? (me.data?.roles ?? []) : admin ? [admin.role] : [];
  return hasPermission(roles, key);
}

/**
 * The practice's ACSP number and AML supervisor (identity_verification.settings: managers and admins).
 * Every verification record carries the values in force when it was recorded.
 */
export function AcspSettingsCard({ realm = 'admin' }: { realm?: AuthRealm }) {
  const settings = useAcspSettingsQuery({ realm });
  const [save, saving] = useSaveAcspSettingsMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const toast = useToast();
  const ids = { number: useId(), supervisor: useId() };
  const s = settings.data;
  return (
    <Card size="small" title={<h2 style={{ fontSize: 16, margin: 0 }}>The practice as an ACSP</h2>}>
      {settings.isError && <Alert type="error" showIcon title="The ACSP settings could not be loaded" />}
      {s && (
        <Form
          layout="vertical"
          key={s.updated_at ?? 'new'}
          initialValues={{ acsp_number: s.acsp_number ?? '', aml_supervisor: s.aml_supervisor ?? '' }}
          onFinish={(v: { acsp_number: string; aml_supervisor: string }) => {
            setProblem(null);
            save({ acsp_number: v.acsp_number.trim(), aml_supervisor: v.aml_supervisor.trim(), realm })
              .unwrap()
              .then(
                (r) => toast.success(serverText(r.message), 'acsp-settings'),
                (e) => setProblem(errorBody(e)?.message ?? 'The ACSP settings could not be saved'),
              );
          }}
        >
          <Typography.Paragraph type="secondary">
            The number Companies House gave the practice as an Authorised Corporate Service Provider, and its anti-money laundering
            supervisor. Each verification the practice records keeps the values in force that day.
          </Typography.Paragraph>
          <Form.Item
            name="acsp_number"
            label="ACSP number"
            htmlFor={ids.number}
            rules={[{ required: true, whitespace: true, message: 'Enter the ACSP number' }]}
          >
            <Input id={ids.number} maxLength={40} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="aml_supervisor"
            label="AML supervisor"
            htmlFor={ids.supervisor}
            rules={[{ required: true, whitespace: true, message: 'Enter the AML supervisor' }]}
          >
            <Input id={ids.supervisor} maxLength={200} placeholder="e.g. ICAEW, ACCA, HMRC" />
          </Form.Item>
          {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
          <Flex gap={12} align="center" wrap>
            <Button type="primary" htmlType="submit" loading={saving.isLoading}>
              Save ACSP settings
            </Button>
            {s.updated_at && (
              <Typography.Text type="secondary">
                Last saved {formatDateTime(s.updated_at)}
                {s.updated_by_name ? ` by ${s.updated_by_name}` : ''}
              </Typography.Text>
            )}
          </Flex>
        </Form>
      )}
    </Card>
  );
}

interface RecordProps {
  clientId: string;
  clientName?: string;
  /** The person to start with (the identity verification view's row): matched to the AML file by key, else by name. */
  personName?: string;
  personKey?: string;
  realm?: AuthRealm;
  onClose: () => void;
}

interface RecordValues {
  person_id?: string;
  personal_code: string;
  verified_on: string;
  evidence_document_ids: string[];
}

/**
 * "Record verification": a person of the client's AML file, the Companies House personal code, the date and
 * the evidence, chosen from that person's identity documents in the AML file (referenced, never copied).
 */
export function RecordVerificationModal({ clientId, clientName, personName, personKey, realm = 'admin', onClose }: RecordProps) {
  const file = useAmlFileQuery({ clientId, realm });
  const [record, recording] = useRecordAcspVerificationMutation();
  const [form] = Form.useForm<RecordValues>();
  const [problem, setProblem] = useState<string | null>(null);
  const toast = useToast();
  const ids = { person: useId(), code: useId(), date: useId() };
  const people = (file.data?.current.people ?? []).filter((p) => !p.ceased_on);
  // Both name a person by their Companies House key (decision 260); a file from before it joins by name.
  const preselected =
    (personKey ? people.find((p) => p.person_key === personKey)?.id : undefined) ??
    (personName ? people.find((p) => fold(p.name) === fold(personName))?.id : undefined);
  const watched = Form.useWatch('person_id', form);
  const person = people.find((p) => p.id === (watched ?? preselected));
  const documents = (person?.evidence ?? []).filter((e) => e.filename);
  const title = clientName ?? file.data?.client_name;

  const submit = (v: RecordValues) => {
    setProblem(null);
    record({
      clientId,
      realm,
      input: {
        person_key: v.person_id!,
        personal_code: normalisePersonalCode(v.personal_code),
        verified_on: v.verified_on,
        evidence_document_ids: v.evidence_document_ids,
      },
    })
      .unwrap()
      .then(
        (r) => {
          toast.success(serverText(r.message), 'acsp-record');
          onClose();
        },
        (e) => setProblem(errorBody(e)?.message ?? 'The verification could not be recorded'),
      );
  };

  return (
    <Modal
      open
      title={title ? `Record verification: ${title}` : 'Record verification'}
      onCancel={onClose}
      okText="Record verification"
      okButtonProps={{ loading: recording.isLoading, disabled: !file.data || people.length === 0 }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      {file.isLoading && <Typography.Text>Loading the AML file…</Typography.Text>}
      {file.isError && <Alert type="error" showIcon title={errorBody(file.error)?.message ?? 'The AML file could not be loaded'} />}
      {file.data && people.length === 0 && (
        <Alert type="info" showIcon title="Add the person to the client's AML file, with their identity documents, first." />
      )}
      {file.data && people.length > 0 && (
        <Form<RecordValues>
          form={form}
          layout="vertical"
          initialValues={{ person_id: preselected, personal_code: '', verified_on: today(), evidence_document_ids: [] }}
          onFinish={submit}
          onValuesChange={(changed: Partial<RecordValues>) => {
            if ('person_id' in changed) form.setFieldValue('evidence_document_ids', []);
          }}
        >
          <Form.Item name="person_id" label="Person" htmlFor={ids.person} rules={[{ required: true, message: 'Choose the person' }]}>
            <Select
              id={ids.person}
              showSearch
              optionFilterProp="label"
              placeholder="Choose a person from the AML file"
              options={people.map((p) => ({ value: p.id, label: p.name }))}
            />
          </Form.Item>
          <Form.Item
            name="personal_code"
            label="Personal code"
            htmlFor={ids.code}
            extra="The 11-character code Companies House gave the person when their identity was verified."
            rules={[
              {
                validator: (_, value: string | undefined) =>
                  value && isPersonalCode(value) ? Promise.resolve() : Promise.reject(new Error(ACSP_MESSAGES.personalCodeFormat)),
              },
            ]}
          >
            <Input id={ids.code} maxLength={40} autoComplete="off" spellCheck={false} />
          </Form.Item>
          <Form.Item
            name="verified_on"
            label="Date verified"
            htmlFor={ids.date}
            rules={[
              { required: true, message: 'Enter the date' },
              {
                validator: (_, value: string | undefined) =>
                  value && value > today() ? Promise.reject(new Error(ACSP_MESSAGES.futureDate)) : Promise.resolve(),
              },
            ]}
          >
            <Input id={ids.date} type="date" max={today()} />
          </Form.Item>
          {person && documents.length === 0 && (
            <Alert
              type="warning"
              showIcon
              title={`${person.name} has no identity documents in the AML file yet: upload them there first.`}
              style={{ marginBottom: 12 }}
            />
          )}
          <Form.Item
            name="evidence_document_ids"
            label="Evidence (the person's identity documents in the AML file)"
            rules={[{ required: true, type: 'array', min: 1, message: 'Choose at least one identity document' }]}
          >
            <Checkbox.Group
              options={documents.map((e) => ({
                value: e.document_id,
                label: `${e.filename} (checked ${formatDate(e.checked_on)} by ${e.checked_by_name})`,
              }))}
              style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
            />
          </Form.Item>
          {problem && <Alert type="error" showIcon title={problem} />}
        </Form>
      )}
    </Modal>
  );
}

/**
 * A client's ACSP verification records (the AML file): who, code, date, evidence, by whom, kept until; "Record
 * verification" for those who may (identity_verification.record) and "Delete", whose refusal within the seven
 * years is shown as the server words it.
 */
export function AcspVerificationsCard({ clientId, realm = 'admin' }: { clientId: string; realm?: AuthRealm }) {
  const list = useAcspVerificationsQuery({ clientId, realm });
  const [remove, removing] = useDeleteAcspVerificationMutation();
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const canRecord = useCan('identity_verification.record', realm);
  const canDelete = useCan('identity_verification.delete', realm);
  const toast = useToast();

  const del = (r: AcspVerification) => {
    setRefusal(null);
    remove({ clientId, id: r.id, realm })
      .unwrap()
      .then(
        (reply) => toast.success(serverText(reply.message), 'acsp-delete'),
        (e) => setRefusal(errorBody(e)?.message ?? 'The record could not be deleted'),
      );
  };

  return (
    <Card
      size="small"
      title="Companies House identity verification (ACSP)"
      extra={
        canRecord ? (
          <Button size="small" type="primary" onClick={() => setOpen(true)}>
            Record verification
          </Button>
        ) : undefined
      }
    >
      {list.isError && <Alert type="error" showIcon title={errorBody(list.error)?.message ?? 'The records could not be loaded'} />}
      {refusal && <Alert type="warning" showIcon title={refusal} closable onClose={() => setRefusal(null)} style={{ marginBottom: 8 }} />}
      <Table<AcspVerification>
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: 'The practice has recorded no verification for this client' }}
        columns={[
          { title: 'Person', dataIndex: 'person_name' },
          { title: 'Personal code', dataIndex: 'personal_code' },
          { title: 'Verified on', dataIndex: 'verified_on', render: (d: string) => formatDate(d) },
          { title: 'Evidence', key: 'evidence', render: (_: unknown, r) => r.evidence.map((e) => e.filename || 'Document').join(', ') },
          { title: 'Recorded by', dataIndex: 'recorded_by_name' },
          { title: 'ACSP number', dataIndex: 'acsp_number' },
          { title: 'Kept until', dataIndex: 'keep_until', render: (d: string) => formatDate(d) },
          ...(canDelete
            ? [
                {
                  title: 'Actions',
                  key: 'actions',
                  render: (_: unknown, r: AcspVerification) => (
                    <Button
                      size="small"
                      danger
                      loading={removing.isLoading && removing.originalArgs?.id === r.id}
                      aria-label={`Delete the verification of ${r.person_name} on ${formatDate(r.verified_on)}`}
                      onClick={() => del(r)}
                    >
                      Delete
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {open && <RecordVerificationModal clientId={clientId} realm={realm} onClose={() => setOpen(false)} />}
    </Card>
  );
}

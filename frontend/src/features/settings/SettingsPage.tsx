import {
  formatDateTime,
  MESSAGES,
  settingsEmailProblem,
  settingsNameProblem,
  settingsPhoneProblem,
  SETTING_FIELD_LABELS,
  SETTINGS_LIMITS,
  SETTINGS_MESSAGES,
  type PracticeSettings,
  type SettingChange,
  type SettingField,
} from '@countinghouse/proto';
import { Alert, App, Button, Card, Flex, Form, Input, Skeleton, Switch, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { errorBody } from '../../app/api';
import { protoRule } from '../../shared/form-rules';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { usePracticeSettingsQuery, useSettingChangesQuery, useUpdateSettingsMutation } from './api';
import { EngagementTemplatesSection } from '../engagement/TemplatesSection';
import { VatRegistrationSection } from '../client/VatSection';
import './settings.css';

const HISTORY_PAGE_SIZE = 10;

interface ContactValues {
  name: string;
  phone: string;
  email: string;
}

const TEXT_FIELDS = ['name', 'phone', 'email'] as const;

/** The server's per-field problems onto the form, or one toast for anything else. */
function useSaveErrors(form?: ReturnType<typeof Form.useForm<ContactValues>>[0]) {
  const toast = useToast();
  return (error: unknown) => {
    const body = errorBody(error);
    const details = (error as { data?: { error?: { details?: { path: string; message: string }[] } } })?.data?.error?.details;
    const fields = (details ?? []).filter((d) => (TEXT_FIELDS as readonly string[]).includes(d.path));
    if (form && fields.length > 0) form.setFields(fields.map((d) => ({ name: d.path as keyof ContactValues, errors: [d.message] })));
    toast.error(body ? serverText(body.message) : MESSAGES.unexpectedError, 'settings-save');
  };
}

/** /admin/settings: the practice's name and contact details, the maintenance switch, and who changed what. */
export function SettingsPage() {
  usePageTitle('Company Settings');
  const settings = usePracticeSettingsQuery();
  return (
    <Flex vertical gap={16} className="settings-page">
      <Typography.Title level={1} className="settings-page__title">
        Company Settings
      </Typography.Title>
      {settings.isError && <Alert type="error" showIcon title={SETTINGS_MESSAGES.failedToLoad} />}
      {settings.isLoading && <Skeleton active />}
      {settings.data && (
        <>
          <ContactCard current={settings.data} />
          <MaintenanceCard current={settings.data} />
        </>
      )}
      <VatRegistrationSection />
      <EngagementTemplatesSection />
      <HistoryCard />
    </Flex>
  );
}

export default SettingsPage;

function ContactCard({ current }: { current: PracticeSettings }) {
  const [form] = Form.useForm<ContactValues>();
  const [update, { isLoading: saving }] = useUpdateSettingsMutation();
  const toast = useToast();
  const onSaveError = useSaveErrors(form);
  const values = Form.useWatch([], form) as Partial<ContactValues> | undefined;
  const saved: ContactValues = { name: current.name, phone: current.phone, email: current.email };

  // A newer saved state (this tab's save, or a refetch) becomes the form's starting point.
  useEffect(() => {
    form.setFieldsValue({ name: current.name, phone: current.phone, email: current.email });
  }, [form, current.name, current.phone, current.email]);

  const changed = TEXT_FIELDS.filter((f) => values?.[f] !== undefined && values[f]!.trim() !== saved[f]);

  const onFinish = async (v: ContactValues) => {
    const patch = Object.fromEntries(changed.map((f) => [f, v[f].trim()]));
    try {
      const reply = await update(patch).unwrap();
      toast.success(serverText(reply.message), 'settings-save');
    } catch (err) {
      onSaveError(err);
    }
  };

  return (
    <Card
      title="Practice details"
      extra={<Typography.Text type="secondary">Shown on the public site and the payment page</Typography.Text>}
    >
      <Form<ContactValues>
        form={form}
        layout="vertical"
        className="settings-page__form"
        initialValues={saved}
        onFinish={onFinish}
        requiredMark={false}
      >
        <Form.Item
          label={SETTING_FIELD_LABELS.name}
          name="name"
          rules={[protoRule(settingsNameProblem, { required: true })]}
          validateTrigger="onBlur"
        >
          <Input maxLength={SETTINGS_LIMITS.nameMax + 20} autoComplete="organization" />
        </Form.Item>
        <Form.Item
          label={SETTING_FIELD_LABELS.phone}
          name="phone"
          rules={[protoRule(settingsPhoneProblem, { required: true })]}
          validateTrigger="onBlur"
          extra="Digits, spaces, + and brackets, e.g. 020 7946 0321 or +44 (0)20 7946 0321"
        >
          <Input inputMode="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item
          label={SETTING_FIELD_LABELS.email}
          name="email"
          rules={[protoRule(settingsEmailProblem, { required: true })]}
          validateTrigger="onBlur"
        >
          <Input type="email" inputMode="email" autoComplete="email" />
        </Form.Item>
        <Flex gap={8}>
          <Button type="primary" htmlType="submit" loading={saving} disabled={changed.length === 0}>
            Save
          </Button>
          <Button htmlType="button" disabled={changed.length === 0 || saving} onClick={() => form.setFieldsValue(saved)}>
            Reset
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}

function MaintenanceCard({ current }: { current: PracticeSettings }) {
  const { modal } = App.useApp();
  const [update, { isLoading: saving }] = useUpdateSettingsMutation();
  const toast = useToast();
  const onSaveError = useSaveErrors();
  const on = current.maintenance;

  const confirm = (next: boolean) => {
    modal.confirm({
      title: next ? 'Turn maintenance mode on?' : 'Turn maintenance mode off?',
      content: next
        ? 'Within seconds, every public and client page shows the maintenance page. The admin area and the staff portal stay open.'
        : 'Within seconds, the public site and client pages are open again.',
      okText: next ? 'Turn on' : 'Turn off',
      okButtonProps: next ? { danger: true } : undefined,
      cancelText: 'Cancel',
      autoFocusButton: 'cancel',
      onOk: async () => {
        try {
          const reply = await update({ maintenance: next }).unwrap();
          toast.success(serverText(reply.message), 'settings-maintenance');
        } catch (err) {
          onSaveError(err);
        }
      },
    });
  };

  return (
    <Card title="Maintenance">
      <div className="settings-page__maintenance">
        <div className="settings-page__maintenance-text">
          <Typography.Paragraph style={{ marginBottom: 8 }}>
            <strong>Maintenance mode</strong> {on ? <Tag color="red">On</Tag> : <Tag color="green">Off</Tag>}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            When on, visitors and clients see ‘{MESSAGES.maintenanceHeading}’ instead of the public site and the client pages. The admin
            area, the staff portal and their sign-in stay open, and the API keeps working.
          </Typography.Paragraph>
        </div>
        <Switch checked={on} loading={saving} onChange={(next) => confirm(next)} aria-label="Maintenance mode" />
      </div>
    </Card>
  );
}

function HistoryCard() {
  const [page, setPage] = useState(1);
  const history = useSettingChangesQuery({ page, page_size: HISTORY_PAGE_SIZE });
  return (
    <Card title="Change history">
      {history.isError && <Alert type="error" showIcon title={SETTINGS_MESSAGES.failedToLoad} style={{ marginBottom: 12 }} />}
      <Table<SettingChange>
        rowKey="id"
        size="small"
        loading={history.isFetching}
        dataSource={history.data?.changes ?? []}
        pagination={{
          current: page,
          pageSize: HISTORY_PAGE_SIZE,
          total: history.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        locale={{ emptyText: 'No changes yet' }}
        columns={[
          { title: 'When', dataIndex: 'changed_at', key: 'when', render: (v: string) => formatDateTime(v) },
          { title: 'Who', dataIndex: 'actor_name', key: 'who' },
          {
            title: 'Setting',
            dataIndex: 'field',
            key: 'field',
            render: (v: string) => SETTING_FIELD_LABELS[v as SettingField] ?? v,
          },
          {
            title: 'Change',
            key: 'change',
            render: (_: unknown, c: SettingChange) => (
              <span>
                <span className="settings-page__old">{c.old_value ?? '—'}</span>
                <span className="settings-page__arrow" aria-label="changed to">
                  →
                </span>
                <span>{c.new_value}</span>
              </span>
            ),
          },
        ]}
      />
    </Card>
  );
}

import {
  formatDateTime,
  LETTER_PLACEHOLDERS,
  MAX_TEMPLATE_SECTION,
  PACKAGES,
  type TemplateSet,
  type Templates,
} from '@countinghouse/proto';
import { Alert, App, Button, Card, Form, Input, Skeleton, Space, Typography } from 'antd';
import { ResponsiveTabs } from '../../shared/ResponsiveTabs';
import { useEffect } from 'react';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useLetterTemplatesQuery, useSaveLetterTemplatesMutation, useSendNewTermsMutation } from './api';
import './engagement.css';

type FormValues = TemplateSet;

function TemplatesForm({ current }: { current: Templates }) {
  const [form] = Form.useForm<FormValues>();
  const [save, saving] = useSaveLetterTemplatesMutation();
  const [send, sending] = useSendNewTermsMutation();
  const toast = useToast();
  const { modal } = App.useApp();
  useEffect(() => form.setFieldsValue(current.templates), [current, form]);

  const onFinish = async (values: FormValues) => {
    try {
      const r = await save({
        version: current.version,
        templates: { ...values, schedules: { ...current.templates.schedules, ...values.schedules } },
      }).unwrap();
      toast.success(serverText(r.message));
    } catch (err) {
      const body = errorBody(err);
      form.setFields(
        (body?.details ?? []).map((d) => ({ name: d.path.replace(/^\//, '').split('/'), errors: [d.message] })) as Parameters<
          typeof form.setFields
        >[0],
      );
      toast.error(serverText(body?.message ?? 'The templates could not be saved.'));
    }
  };
  const sendAll = () =>
    modal.confirm({
      title: 'Send the new terms?',
      content: `${current.clients_on_older_version} clients will be asked to sign a new version of their letter. Letters already signed stay in their documents.`,
      okText: 'Send for signature',
      onOk: async () => {
        try {
          toast.success(serverText((await send().unwrap()).message));
        } catch (err) {
          toast.error(serverText(errorBody(err)?.message ?? 'The new terms could not be sent.'));
        }
      },
    });
  const area = (label: string, name: string | string[]) => (
    <Form.Item label={label} name={name} rules={[{ required: true, message: `${label} is required` }]}>
      <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} maxLength={MAX_TEMPLATE_SECTION} />
    </Form.Item>
  );
  return (
    <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} initialValues={current.templates}>
      <Typography.Paragraph type="secondary">
        Version {current.version}, saved {formatDateTime(current.updated_at)}
        {current.updated_by_name ? ` by ${current.updated_by_name}` : ''}. Placeholders:{' '}
        {LETTER_PLACEHOLDERS.map((p) => (
          <code key={p.key} title={p.label} className="engagement-placeholder">
            {`{{${p.key}}}`}
          </code>
        ))}
      </Typography.Paragraph>
      <ResponsiveTabs
        label="Template"
        items={[
          { key: 'terms', label: 'Standard terms', children: area('Standard terms', 'terms'), forceRender: true },
          {
            key: 'schedules',
            label: 'Schedules of services',
            forceRender: true,
            children: PACKAGES.map((p) => <div key={p.name}>{area(`Schedule: ${p.name}`, ['schedules', p.name])}</div>),
          },
          { key: 'privacy', label: 'Privacy notice', children: area('Privacy notice', 'privacy'), forceRender: true },
          {
            key: 'cancellation',
            label: 'Cancellation notice (consumers)',
            children: area('Cancellation notice', 'cancellation'),
            forceRender: true,
          },
        ]}
      />
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={saving.isLoading}>
          Save templates
        </Button>
        <Button disabled={current.clients_on_older_version === 0} loading={sending.isLoading} onClick={sendAll}>
          Send the new terms to {current.clients_on_older_version} {current.clients_on_older_version === 1 ? 'client' : 'clients'}
        </Button>
      </Space>
    </Form>
  );
}

/** /admin/settings: the engagement letter templates (a new version on every save; sending the new terms is a choice). */
export function EngagementTemplatesSection() {
  const q = useLetterTemplatesQuery();
  return (
    <Card title="Engagement letter templates">
      {q.isLoading && <Skeleton active />}
      {q.isError && (
        <Alert
          type="error"
          showIcon
          title="The letter templates could not be loaded."
          action={
            <Button size="small" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {q.data && <TemplatesForm current={q.data} />}
    </Card>
  );
}

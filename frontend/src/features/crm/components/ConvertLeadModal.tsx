import { FORM_RULES } from '../../../shared/form-rules';
import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal, Select, Typography } from 'antd';
import { formatGBP, monthlyFeeFor, type BusinessType, type Client, type Lead, type SubscriptionStatus } from '@countinghouse/proto';
import { useConvertLeadMutation } from '../api';
import { writeErrorText } from '../errors';
import { BUSINESS_TYPE_OPTIONS, PACKAGE_OPTIONS, SUBSCRIPTION_STATUS_OPTIONS } from '../labels';
import type { ToastText } from '../../../shared/toast';
import { useCrmRealm } from '../realm';

interface Values {
  company_name: string;
  package_name?: string;
  business_type: BusinessType;
  subscription_status: SubscriptionStatus;
}

interface Props {
  lead: Lead | null;
  onClose: () => void;
  onConverted?: (client: Client) => void;
}

/** Turns a won lead into a client; the server copies name, e-mail, phone and company. */
export function ConvertLeadModal({ lead, onClose, onConverted }: Props) {
  const [form] = Form.useForm<Values>();
  const [convert, { isLoading }] = useConvertLeadMutation();
  const [failure, setFailure] = useState<ToastText | null>(null);
  const packageName = Form.useWatch('package_name', form);
  const realm = useCrmRealm();

  useEffect(() => {
    if (!lead) return;
    setFailure(null);
    form.resetFields();
    form.setFieldsValue({
      company_name: lead.company_name ?? lead.name,
      business_type: lead.business_type ?? 'limited',
      subscription_status: 'pending',
    });
  }, [lead, form]);

  async function onFinish(values: Values) {
    if (!lead) return;
    setFailure(null);
    try {
      const reply = await convert({
        id: lead.id,
        realm,
        body: {
          company_name: values.company_name.trim(),
          package_name: values.package_name ?? null,
          business_type: values.business_type,
          subscription_status: values.subscription_status,
        },
      }).unwrap();
      onConverted?.(reply.client);
      onClose();
    } catch (error) {
      setFailure(writeErrorText(error));
    }
  }

  return (
    <Modal
      open={lead !== null}
      title={lead ? `Convert ${lead.name} into a client` : 'Convert lead'}
      okText="Convert to client"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={isLoading}
    >
      {failure && <Alert type="error" showIcon title={failure} role="alert" className="crm-form__alert" />}
      {lead && (
        <Typography.Paragraph type="secondary">
          The new client takes this lead&apos;s contact details ({lead.email ?? 'no e-mail'}). It starts as pending until the first payment.
        </Typography.Paragraph>
      )}
      <Form<Values> form={form} layout="vertical" name="convert-lead" onFinish={onFinish}>
        <Form.Item label="Company name" name="company_name" rules={FORM_RULES.text('Please enter the company name')}>
          <Input />
        </Form.Item>
        <Form.Item
          label="Package"
          name="package_name"
          extra={packageName ? `Monthly fee ${formatGBP(monthlyFeeFor(packageName))}/month` : undefined}
        >
          <Select options={PACKAGE_OPTIONS} allowClear placeholder="Choose a package" />
        </Form.Item>
        <Form.Item label="Business type" name="business_type" rules={[{ required: true }]}>
          <Select options={BUSINESS_TYPE_OPTIONS} />
        </Form.Item>
        <Form.Item label="Status" name="subscription_status" rules={[{ required: true }]}>
          <Select options={SUBSCRIPTION_STATUS_OPTIONS} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

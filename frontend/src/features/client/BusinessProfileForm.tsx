import { Form, Input, InputNumber, Modal, Select } from 'antd';
import {
  BUSINESS_TYPE_LABELS,
  BUSINESS_TYPES,
  businessTypeProblem,
  CLIENT_PLACEHOLDERS,
  CLIENT_PROFILE_MESSAGES as M,
  companyNameProblem,
  contactNameProblem,
  EMPLOYEES_MAX,
  MESSAGES,
  profilePhoneProblem,
  type BusinessType,
  type Client,
} from '@countinghouse/proto';
import { FORM_RULES, protoRule } from '../../shared/form-rules';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useUpdateMyProfileMutation } from './api';

interface Values {
  company_name: string;
  contact_name: string;
  contact_phone: string;
  business_type: BusinessType;
  employees_count: number | null;
}
type Field = keyof Values;
const FIELDS: readonly Field[] = ['company_name', 'contact_name', 'contact_phone', 'business_type', 'employees_count'];

/** The record's values, with the placeholders a payment starts a client with shown as empty fields. */
function initialValues(c: Client): Values {
  const real = (v: string | null, placeholder: string) => (v && v !== placeholder ? v : '');
  return {
    company_name: real(c.company_name, CLIENT_PLACEHOLDERS.companyName),
    contact_name: real(c.contact_name, CLIENT_PLACEHOLDERS.contactName),
    contact_phone: c.contact_phone ?? '',
    business_type: c.business_type,
    employees_count: c.employees_count,
  };
}

interface ServerDetails {
  details?: { path: string; message: string }[];
}

/**
 * The client's business profile (onboarding checklist): business and contact name, phone, business
 * type and employees. Checked here with the server's own messages; whatever the server still refuses
 * is shown on its field. E-mail, package and status are not the client's to change here.
 */
export function BusinessProfileForm({ client, open, onClose }: { client: Client; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const [save, saving] = useUpdateMyProfileMutation();
  const toast = useToast();

  const onFinish = async (v: Values) => {
    try {
      await save({
        company_name: v.company_name,
        contact_name: v.contact_name,
        contact_phone: v.contact_phone,
        business_type: v.business_type,
        employees_count: v.employees_count ?? 0,
      }).unwrap();
      toast.success(serverText(M.saved));
      onClose();
    } catch (err) {
      const body = errorBody(err);
      const details = ((err as { data?: { error?: ServerDetails } }).data?.error?.details ?? []).filter(
        (d): d is { path: Field; message: string } => (FIELDS as readonly string[]).includes(d.path),
      );
      if (details.length) form.setFields(details.map((d) => ({ name: d.path, errors: [d.message] })));
      toast.error(serverText(body?.message ?? MESSAGES.unexpectedError));
    }
  };

  return (
    <Modal
      open={open}
      title="Your business profile"
      okText="Save profile"
      confirmLoading={saving.isLoading}
      onOk={() => form.submit()}
      onCancel={onClose}
      // Each opening starts from the saved record.
      destroyOnHidden
    >
      <p>
        Tell us about your business so your accountant can get started. We use your sign-in e-mail, {client.contact_email}, to write to you.
      </p>
      <Form<Values>
        form={form}
        layout="vertical"
        name="business-profile"
        initialValues={initialValues(client)}
        onFinish={(v) => void onFinish(v)}
        requiredMark
      >
        <Form.Item label="Business name" name="company_name" rules={[protoRule(companyNameProblem, { required: true })]}>
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item label="Contact name" name="contact_name" rules={[protoRule(contactNameProblem, { required: true })]}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item label="Phone" name="contact_phone" rules={[protoRule(profilePhoneProblem, { required: true })]}>
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item label="Business type" name="business_type" rules={[protoRule(businessTypeProblem, { required: true, empty: null })]}>
          <Select aria-label="Business type" options={BUSINESS_TYPES.map((b) => ({ value: b, label: BUSINESS_TYPE_LABELS[b] }))} />
        </Form.Item>
        <Form.Item label="Number of employees" name="employees_count" rules={FORM_RULES.employees({ required: true })}>
          <InputNumber min={0} max={EMPLOYEES_MAX} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

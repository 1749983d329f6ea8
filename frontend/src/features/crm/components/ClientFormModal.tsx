import { useEffect } from 'react';
import { Col, DatePicker, Form, InputNumber, Row, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { FORM_RULES } from '../../../shared/form-rules';
import {
  EMPLOYEES_MAX,
  formatGBP,
  monthlyFeeFor,
  type BusinessType,
  type Client,
  type ClientCreateBody,
  type SubscriptionStatus,
} from '@countinghouse/proto';
import { useCreateClientMutation, useTeamMembersQuery, useUpdateClientMutation } from '../api';
import { BUSINESS_TYPE_OPTIONS, PACKAGE_OPTIONS, SUBSCRIPTION_STATUS_OPTIONS } from '../labels';
import { EmailItem, PhoneItem, RequiredSelectItem, TextItem } from './FormFields';
import { FormModal, useFormFailure } from './FormModal';

interface Values {
  company_name: string;
  contact_name: string;
  contact_email: string;
  contact_phone?: string;
  business_type: BusinessType;
  package_name?: string;
  subscription_status: SubscriptionStatus;
  employees_count?: number | null;
  next_billing_date?: Dayjs | null;
  assigned_accountant_id?: string | null;
}

interface Props {
  open: boolean;
  /** Edit this client; without it the form adds a new one. */
  client?: Client | null;
  onClose: () => void;
  onSaved?: (client: Client) => void;
}

const blankToNull = (v: string | undefined | null) => (v && v.trim() ? v.trim() : null);

function initialValues(client: Client | null | undefined): Partial<Values> {
  if (!client) return { business_type: 'limited', subscription_status: 'pending', employees_count: 0 };
  return {
    company_name: client.company_name,
    contact_name: client.contact_name ?? '',
    contact_email: client.contact_email,
    contact_phone: client.contact_phone ?? '',
    business_type: client.business_type,
    package_name: client.package_name ?? undefined,
    subscription_status: client.subscription_status,
    employees_count: client.employees_count,
    next_billing_date: client.next_billing_date ? dayjs(client.next_billing_date) : null,
    assigned_accountant_id: client.assigned_accountant_id,
  };
}

/** Add Client and Edit client: company, contact and e-mail are required (the spec leaves the form open). */
export function ClientFormModal({ open, client, onClose, onSaved }: Props) {
  const [form] = Form.useForm<Values>();
  const [create, creating] = useCreateClientMutation();
  const [update, updating] = useUpdateClientMutation();
  const { failure, setFailure, attempt } = useFormFailure();
  const team = useTeamMembersQuery(undefined, { skip: !open });
  const packageName = Form.useWatch('package_name', form);
  const isEdit = Boolean(client);

  useEffect(() => {
    if (open) {
      setFailure(null);
      form.resetFields();
      form.setFieldsValue(initialValues(client));
    }
  }, [open, client, form]);

  const accountants = (team.data?.members ?? [])
    .filter((m) => m.roles.includes('accountant'))
    .map((m) => ({ value: m.user_id, label: `${m.name} (${m.email})` }));

  async function onFinish(values: Values) {
    const body: ClientCreateBody = {
      company_name: values.company_name.trim(),
      contact_name: values.contact_name.trim(),
      contact_email: values.contact_email.trim(),
      contact_phone: blankToNull(values.contact_phone),
      business_type: values.business_type,
      package_name: values.package_name ?? null,
      subscription_status: values.subscription_status,
      employees_count: values.employees_count ?? 0,
      next_billing_date: values.next_billing_date ? values.next_billing_date.format('YYYY-MM-DD') : null,
      assigned_accountant_id: values.assigned_accountant_id ?? null,
    };
    await attempt(async () => {
      const saved = client ? await update({ id: client.id, body }).unwrap() : await create(body).unwrap();
      onSaved?.(saved);
      onClose();
    });
  }

  return (
    <FormModal
      open={open}
      title={isEdit ? `Edit client — ${client?.company_name}` : 'Add Client'}
      okText={isEdit ? 'Save changes' : 'Add Client'}
      form={form}
      onClose={onClose}
      confirmLoading={creating.isLoading || updating.isLoading}
      width={640}
      failure={failure}
    >
      <Form<Values> form={form} layout="vertical" name={isEdit ? 'edit-client' : 'add-client'} onFinish={onFinish} requiredMark>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <TextItem
              label="Company name"
              name="company_name"
              requiredMessage="Please enter the company name"
              autoComplete="organization"
            />
          </Col>
          <Col xs={24} md={12}>
            <TextItem label="Contact name" name="contact_name" requiredMessage="Please enter the contact name" autoComplete="name" />
          </Col>
          <Col xs={24} md={12}>
            <EmailItem label="Contact e-mail" name="contact_email" requiredMessage="Please enter the contact e-mail" />
          </Col>
          <Col xs={24} md={12}>
            <PhoneItem label="Contact phone" name="contact_phone" />
          </Col>
          <Col xs={24} md={12}>
            <RequiredSelectItem label="Business type" name="business_type" options={BUSINESS_TYPE_OPTIONS} />
          </Col>
          <Col xs={24} md={12}>
            <RequiredSelectItem label="Status" name="subscription_status" options={SUBSCRIPTION_STATUS_OPTIONS} />
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              label="Package"
              name="package_name"
              extra={packageName ? `Monthly fee ${formatGBP(monthlyFeeFor(packageName))}/month` : 'No package yet'}
            >
              <Select options={PACKAGE_OPTIONS} allowClear placeholder="Choose a package" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Employees" name="employees_count" rules={FORM_RULES.employees()}>
              <InputNumber min={0} max={EMPLOYEES_MAX} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Next billing date" name="next_billing_date">
              <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Assigned accountant" name="assigned_accountant_id">
              <Select
                options={accountants}
                allowClear
                loading={team.isFetching}
                placeholder={team.isError ? 'Team list unavailable' : 'Unassigned'}
                notFoundContent={<Typography.Text type="secondary">No accountants yet</Typography.Text>}
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}

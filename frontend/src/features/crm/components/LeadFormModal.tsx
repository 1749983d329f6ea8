import { useEffect } from 'react';
import { AutoComplete, Col, Form, InputNumber, Row, Select } from 'antd';
import { type BusinessType, type Lead, type LeadCreateBody, type LeadStage } from '@countinghouse/proto';
import { useCreateLeadMutation, useUpdateLeadMutation } from '../api';
import { BUSINESS_TYPE_OPTIONS, STAGE_OPTIONS } from '../labels';
import { useCrmRealm } from '../realm';
import { EmailItem, NotesItem, PhoneItem, RequiredSelectItem, TextItem } from './FormFields';
import { FormModal, useFormFailure } from './FormModal';

interface Values {
  name: string;
  email: string;
  phone?: string;
  company_name?: string;
  stage: LeadStage;
  business_type?: BusinessType | null;
  quote_amount?: number | null;
  source?: string;
  notes?: string;
}

interface Props {
  open: boolean;
  lead?: Lead | null;
  onClose: () => void;
  onSaved?: (lead: Lead) => void;
}

const SOURCE_SUGGESTIONS = ['Website', 'Referral', 'Phone', 'Email', 'Event', 'Social media'].map((value) => ({ value }));

const blankToNull = (v: string | undefined | null) => (v && v.trim() ? v.trim() : null);

function initialValues(lead: Lead | null | undefined): Partial<Values> {
  if (!lead) return { stage: 'new_enquiry' };
  return {
    name: lead.name,
    email: lead.email ?? '',
    phone: lead.phone ?? '',
    company_name: lead.company_name ?? '',
    stage: lead.stage,
    business_type: lead.business_type,
    quote_amount: lead.quote_amount,
    source: lead.source ?? '',
    notes: lead.notes ?? '',
  };
}

/** Add Lead and Edit lead: name and e-mail are required. */
export function LeadFormModal({ open, lead, onClose, onSaved }: Props) {
  const [form] = Form.useForm<Values>();
  const [create, creating] = useCreateLeadMutation();
  const [update, updating] = useUpdateLeadMutation();
  const { failure, setFailure, attempt } = useFormFailure();
  const isEdit = Boolean(lead);
  const realm = useCrmRealm();

  useEffect(() => {
    if (open) {
      setFailure(null);
      form.resetFields();
      form.setFieldsValue(initialValues(lead));
    }
  }, [open, lead, form]);

  async function onFinish(values: Values) {
    const body: LeadCreateBody = {
      name: values.name.trim(),
      email: values.email.trim(),
      phone: blankToNull(values.phone),
      company_name: blankToNull(values.company_name),
      stage: values.stage,
      business_type: values.business_type ?? null,
      quote_amount: values.quote_amount ?? null,
      source: blankToNull(values.source),
      notes: blankToNull(values.notes),
    };
    await attempt(async () => {
      const saved = lead ? await update({ id: lead.id, body, realm }).unwrap() : await create({ ...body, realm }).unwrap();
      onSaved?.(saved);
      onClose();
    });
  }

  return (
    <FormModal
      open={open}
      title={isEdit ? `Edit lead — ${lead?.name}` : 'Add Lead'}
      okText={isEdit ? 'Save changes' : 'Add Lead'}
      form={form}
      onClose={onClose}
      confirmLoading={creating.isLoading || updating.isLoading}
      width={640}
      failure={failure}
    >
      <Form<Values> form={form} layout="vertical" name={isEdit ? 'edit-lead' : 'add-lead'} onFinish={onFinish} requiredMark>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <TextItem label="Name" name="name" requiredMessage="Please enter the name" autoComplete="name" />
          </Col>
          <Col xs={24} md={12}>
            <EmailItem label="E-mail" name="email" requiredMessage="Please enter the e-mail" />
          </Col>
          <Col xs={24} md={12}>
            <PhoneItem label="Phone" name="phone" />
          </Col>
          <Col xs={24} md={12}>
            <TextItem label="Company" name="company_name" autoComplete="organization" />
          </Col>
          <Col xs={24} md={12}>
            <RequiredSelectItem label="Stage" name="stage" options={STAGE_OPTIONS} />
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Business type" name="business_type">
              <Select options={BUSINESS_TYPE_OPTIONS} allowClear placeholder="Not known" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Quote amount (£)" name="quote_amount" rules={[{ type: 'number', min: 0, message: 'Must be 0 or more' }]}>
              <InputNumber min={0} step={10} precision={2} prefix="£" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Source" name="source" rules={[{ max: 100 }]}>
              <AutoComplete options={SOURCE_SUGGESTIONS} placeholder="Website, Referral, …" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <NotesItem label="Notes" name="notes" max={5000} rows={3} />
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}

import { useEffect, useState } from 'react';
import { Alert, AutoComplete, Col, Form, Input, InputNumber, Modal, Row, Select } from 'antd';
import { type BusinessType, type Lead, type LeadCreateBody, type LeadStage } from '@countinghouse/proto';
import { useCreateLeadMutation, useUpdateLeadMutation } from '../api';
import { writeErrorText } from '../errors';
import { BUSINESS_TYPE_OPTIONS, STAGE_OPTIONS } from '../labels';
import type { ToastText } from '../../../shared/toast';
import { useCrmRealm } from '../realm';

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
  const [failure, setFailure] = useState<ToastText | null>(null);
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
    setFailure(null);
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
    try {
      const saved = lead ? await update({ id: lead.id, body, realm }).unwrap() : await create({ ...body, realm }).unwrap();
      onSaved?.(saved);
      onClose();
    } catch (error) {
      setFailure(writeErrorText(error));
    }
  }

  return (
    <Modal
      open={open}
      title={isEdit ? `Edit lead — ${lead?.name}` : 'Add Lead'}
      okText={isEdit ? 'Save changes' : 'Add Lead'}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={creating.isLoading || updating.isLoading}
      width={640}
    >
      {failure && <Alert type="error" showIcon title={failure} role="alert" className="crm-form__alert" />}
      <Form<Values> form={form} layout="vertical" name={isEdit ? 'edit-lead' : 'add-lead'} onFinish={onFinish} requiredMark>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              label="Name"
              name="name"
              rules={[{ required: true, whitespace: true, message: 'Please enter the name' }, { max: 200 }]}
            >
              <Input autoComplete="name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              label="E-mail"
              name="email"
              rules={[
                { required: true, whitespace: true, message: 'Please enter the e-mail' },
                { type: 'email', message: 'Please enter a valid e-mail address' },
              ]}
            >
              <Input type="email" autoComplete="email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Phone" name="phone" rules={[{ max: 40 }]}>
              <Input type="tel" autoComplete="tel" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Company" name="company_name" rules={[{ max: 200 }]}>
              <Input autoComplete="organization" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Stage" name="stage" rules={[{ required: true }]}>
              <Select options={STAGE_OPTIONS} />
            </Form.Item>
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
            <Form.Item label="Notes" name="notes" rules={[{ max: 5000 }]}>
              <Input.TextArea rows={3} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}

import { useEffect } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Col,
  DatePicker,
  Descriptions,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import {
  COMPANY_TYPES,
  DEADLINES_MESSAGES,
  formatDate,
  formatGBP,
  SA_TAXPAYER_ROLES,
  validateTaxProfile,
  VAT_SCHEMES,
  type ClientTaxRecord,
  type SaTaxpayer,
  type TaxProfileInput,
} from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useRefreshCompanyMutation, useSaveTaxProfileMutation } from './api';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
].map((label, i) => ({
  value: i + 1,
  label,
}));

interface Values {
  company_number?: string;
  company_type: 'private' | 'public';
  engagement_start_on?: Dayjs | null;
  incorporation_date?: Dayjs | null;
  ard_day?: number | null;
  ard_month?: number | null;
  last_accounts_made_up_to?: Dayjs | null;
  confirmation_review_date?: Dayjs | null;
  vat_scheme: TaxProfileInput['vat_scheme'];
  vat_annual_end_month?: number | null;
  paye_scheme: boolean;
  paye_payday?: number | null;
  sa_taxpayers?: Array<Partial<SaTaxpayer>>;
}

const d = (v: string | null) => (v ? dayjs(v) : null);
const iso = (v: Dayjs | null | undefined) => (v ? v.format('YYYY-MM-DD') : null);

function toValues(p: TaxProfileInput): Values {
  return {
    ...p,
    company_number: p.company_number ?? '',
    incorporation_date: d(p.incorporation_date),
    engagement_start_on: d(p.engagement_start_on ?? null),
    last_accounts_made_up_to: d(p.last_accounts_made_up_to),
    confirmation_review_date: d(p.confirmation_review_date),
  };
}

function toProfile(v: Values): TaxProfileInput {
  return {
    company_number: v.company_number?.trim() ? v.company_number.trim() : null,
    company_type: v.company_type,
    engagement_start_on: iso(v.engagement_start_on),
    incorporation_date: iso(v.incorporation_date),
    ard_day: v.ard_day ?? null,
    ard_month: v.ard_month ?? null,
    last_accounts_made_up_to: iso(v.last_accounts_made_up_to),
    confirmation_review_date: iso(v.confirmation_review_date),
    vat_scheme: v.vat_scheme,
    vat_annual_end_month: v.vat_scheme === 'annual' ? (v.vat_annual_end_month ?? null) : null,
    paye_scheme: v.paye_scheme,
    paye_payday: v.paye_scheme ? (v.paye_payday ?? null) : null,
    sa_taxpayers: (v.sa_taxpayers ?? []).map((t, i) => ({
      id: t.id || `t${i + 1}-${Math.random().toString(36).slice(2, 8)}`,
      name: (t.name ?? '').trim(),
      role: t.role ?? 'director',
      paper_return: Boolean(t.paper_return),
      qualifying_income: t.role === 'sole_trader' || t.role === 'landlord' ? (t.qualifying_income ?? null) : null,
    })),
  };
}

/** The company as Companies House last described it. */
function CompanyDetails({ record }: { record: ClientTaxRecord }) {
  const c = record.company;
  if (!c) return null;
  const dissolved = c.company_status === 'dissolved';
  return (
    <Flex vertical gap={8}>
      {dissolved && <Alert type="warning" showIcon title="Dissolved: this company raises no more deadlines" />}
      <Descriptions size="small" column={2} bordered title="Companies House">
        <Descriptions.Item label="Name">{c.company_name}</Descriptions.Item>
        <Descriptions.Item label="Status">{c.company_status}</Descriptions.Item>
        <Descriptions.Item label="Type">{c.company_type}</Descriptions.Item>
        <Descriptions.Item label="Incorporated">{formatDate(c.date_of_creation)}</Descriptions.Item>
        <Descriptions.Item label="Registered office" span={2}>
          {c.registered_office}
        </Descriptions.Item>
        <Descriptions.Item label="SIC codes">{c.sic_codes.join(', ')}</Descriptions.Item>
        <Descriptions.Item label="Accounting reference date">
          {c.accounting_reference_date ? `${c.accounting_reference_date.day} ${MONTHS[c.accounting_reference_date.month - 1]?.label}` : ''}
        </Descriptions.Item>
        <Descriptions.Item label="Next accounts due">{formatDate(c.next_accounts_due_on)}</Descriptions.Item>
        <Descriptions.Item label="Confirmation statement due">{formatDate(c.confirmation_statement_next_due)}</Descriptions.Item>
        <Descriptions.Item label="Officers" span={2}>
          {c.officers
            .filter((o) => !o.resigned_on)
            .map((o) => `${o.name} (${o.officer_role})`)
            .join('; ') || 'None listed'}
        </Descriptions.Item>
        <Descriptions.Item label="People with significant control" span={2}>
          {c.pscs
            .filter((p) => !p.ceased_on)
            .map((p) => p.name)
            .join('; ') || 'None listed'}
        </Descriptions.Item>
        <Descriptions.Item label="Read" span={2}>
          {formatDate(c.refreshed_at)}
        </Descriptions.Item>
      </Descriptions>
    </Flex>
  );
}

interface Props {
  record: ClientTaxRecord;
  realm?: AuthRealm;
  canEdit: boolean;
}

/** What the practice records per client; staff edit it, and the deadlines follow. */
export function TaxProfileForm({ record, realm = 'admin', canEdit }: Props) {
  const [form] = Form.useForm<Values>();
  const [save, saving] = useSaveTaxProfileMutation();
  const [refresh, refreshing] = useRefreshCompanyMutation();
  const toast = useToast();
  const vat = Form.useWatch('vat_scheme', form);
  const paye = Form.useWatch('paye_scheme', form);
  const taxpayers = Form.useWatch('sa_taxpayers', form);

  useEffect(() => {
    form.setFieldsValue(toValues(record.profile));
  }, [record, form]);

  async function onFinish(v: Values) {
    const profile = toProfile(v);
    const problems = validateTaxProfile(profile);
    if (problems.length > 0) {
      form.setFields(problems.map((p) => ({ name: p.path.slice(1) as keyof Values, errors: [p.message] })));
      return;
    }
    try {
      const reply = await save({ clientId: record.client_id, profile, realm }).unwrap();
      toast.success(serverText(reply.message), 'tax-profile');
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? 'The tax profile could not be saved'), 'tax-profile');
    }
  }

  return (
    <Flex vertical gap={16}>
      {!record.companies_house_configured && (
        <Alert
          type="info"
          showIcon
          title={DEADLINES_MESSAGES.notConfiguredLink}
          description="Enter the company's dates by hand; the rules work out its deadlines."
        />
      )}
      {record.company_error && <Alert type="warning" showIcon title={record.company_error} />}
      <CompanyDetails record={record} />
      <Form<Values> form={form} layout="vertical" onFinish={onFinish} disabled={!canEdit} requiredMark="optional">
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item
              label="Engagement start date"
              name="engagement_start_on"
              extra="When the practice took the client on: earlier deadlines may be marked filed by the previous agent"
            >
              <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Title level={5}>Company</Typography.Title>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item label="Company number" name="company_number" extra="Companies House number, e.g. 09876543">
              <Input maxLength={10} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Company type" name="company_type">
              <Select options={COMPANY_TYPES.map((t) => ({ value: t.value, label: t.label }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Incorporated on" name="incorporation_date">
              <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item label="Year end day" name="ard_day">
              <InputNumber min={1} max={31} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item label="Year end month" name="ard_month">
              <Select allowClear options={MONTHS} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Last accounts made up to" name="last_accounts_made_up_to">
              <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Confirmation statement review date" name="confirmation_review_date">
              <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Title level={5}>VAT and PAYE</Typography.Title>
        <Row gutter={12}>
          <Col xs={24} md={10}>
            <Form.Item label="VAT" name="vat_scheme">
              <Select options={VAT_SCHEMES.map((v) => ({ value: v.value, label: v.label }))} />
            </Form.Item>
          </Col>
          {vat === 'annual' && (
            <Col xs={24} md={6}>
              <Form.Item label="Annual VAT period ends" name="vat_annual_end_month">
                <Select options={MONTHS} />
              </Form.Item>
            </Col>
          )}
          <Col xs={12} md={4}>
            <Form.Item label="PAYE scheme" name="paye_scheme" valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          {paye && (
            <Col xs={12} md={4}>
              <Form.Item label="Payday (day of month)" name="paye_payday">
                <InputNumber min={1} max={31} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          )}
        </Row>
        <Typography.Title level={5}>Self Assessment taxpayers</Typography.Title>
        <Form.List name="sa_taxpayers">
          {(fields, { add, remove }) => (
            <Flex vertical gap={4}>
              {fields.map((field, i) => {
                const role = taxpayers?.[i]?.role;
                const mtd = role === 'sole_trader' || role === 'landlord';
                return (
                  <Space key={field.key} align="start" wrap>
                    <Form.Item name={[field.name, 'id']} hidden>
                      <Input />
                    </Form.Item>
                    <Form.Item name={[field.name, 'name']} rules={[{ required: true, message: 'Enter the name' }]}>
                      <Input placeholder="Name" aria-label={`Taxpayer ${i + 1} name`} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'role']} initialValue="director">
                      <Select
                        aria-label={`Taxpayer ${i + 1} role`}
                        style={{ width: 140 }}
                        options={SA_TAXPAYER_ROLES.map((r) => ({ value: r.value, label: r.label }))}
                      />
                    </Form.Item>
                    {mtd && (
                      <Form.Item
                        name={[field.name, 'qualifying_income']}
                        extra={`Making Tax Digital: over ${formatGBP(50_000)} from April 2026`}
                      >
                        <InputNumber
                          aria-label={`Taxpayer ${i + 1} qualifying income`}
                          min={0}
                          prefix="£"
                          placeholder="Qualifying income"
                          style={{ width: 180 }}
                        />
                      </Form.Item>
                    )}
                    <Form.Item name={[field.name, 'paper_return']} valuePropName="checked">
                      <Checkbox>Paper return</Checkbox>
                    </Form.Item>
                    {canEdit && (
                      <Button
                        type="text"
                        aria-label={`Remove taxpayer ${i + 1}`}
                        icon={<MinusCircleOutlined />}
                        onClick={() => remove(field.name)}
                      />
                    )}
                  </Space>
                );
              })}
              {canEdit && (
                <div>
                  <Button icon={<PlusOutlined />} onClick={() => add({ role: 'director', paper_return: false })}>
                    Add taxpayer
                  </Button>
                </div>
              )}
            </Flex>
          )}
        </Form.List>
        {canEdit && (
          <Flex gap={8} style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={saving.isLoading}>
              Save tax profile
            </Button>
            {record.companies_house_configured && record.profile.company_number && (
              <Button
                loading={refreshing.isLoading}
                onClick={async () => {
                  try {
                    const reply = await refresh({ clientId: record.client_id, realm }).unwrap();
                    toast.success(serverText(reply.message), 'ch-refresh');
                  } catch (err) {
                    toast.error(serverText(errorBody(err)?.message ?? DEADLINES_MESSAGES.companiesHouseUnavailable), 'ch-refresh');
                  }
                }}
              >
                Refresh from Companies House
              </Button>
            )}
          </Flex>
        )}
      </Form>
    </Flex>
  );
}

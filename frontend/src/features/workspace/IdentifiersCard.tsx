import { useState, type ReactNode } from 'react';
import { Button, Card, Descriptions, Flex, Form, Input, Select } from 'antd';
import {
  formatDateTime,
  IDENTIFIER_MESSAGES,
  validateAccountsOfficeReference,
  validateNino,
  validatePayeReference,
  validateSicCode,
  validateUtr,
  validateVatNumber,
  VAT_SCHEMES,
  type ClientIdentifiersInput,
  type ClientRecord,
  type ClientTaxRecord,
  type IdentifierResult,
} from '@countinghouse/proto';
import type { Rule } from 'antd/es/form';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useSaveIdentifiersMutation } from './api';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const BUSINESS_TYPE_LABELS: Record<string, string> = { sole_trader: 'Sole trader', partnership: 'Partnership', limited: 'Limited company' };
const dash = (v: ReactNode) => (v === null || v === undefined || v === '' ? '—' : v);

function yearEnd(record: ClientTaxRecord | undefined): string | null {
  if (!record) return null;
  const p = record.profile;
  const ard = record.company?.accounting_reference_date ?? (p.ard_day && p.ard_month ? { day: p.ard_day, month: p.ard_month } : null);
  return ard ? `${ard.day} ${MONTHS[ard.month - 1]}` : null;
}

/** A form rule from one of proto's identifier checks (the API runs the same ones). */
const check =
  (validate: (raw: string) => IdentifierResult): Rule =>
  () => ({
    validator(_: unknown, value: string | undefined) {
      if (!value || !value.trim()) return Promise.resolve();
      const r = validate(value);
      return r.ok ? Promise.resolve() : Promise.reject(new Error(r.message));
    },
  });

const sicRule: Rule = () => ({
  validator(_: unknown, value: string[] | undefined) {
    const bad = (value ?? []).find((v) => !validateSicCode(v).ok);
    return bad ? Promise.reject(new Error(IDENTIFIER_MESSAGES.sicFormat)) : Promise.resolve();
  },
});

type Values = Omit<ClientIdentifiersInput, 'sic_codes'> & { sic_codes: string[] };
const FIELDS = ['utr', 'vat_number', 'paye_reference', 'accounts_office_reference', 'nino', 'registered_office'] as const;

/**
 * The identifiers a UK practice keeps (UTR, VAT number, PAYE and Accounts Office references, NINO,
 * registered office, SIC codes), with the company number and year end from the tax profile. Each is
 * checked in the form with its real format and check character before it is sent.
 */
export function IdentifiersCard({ record, tax, realm }: { record: ClientRecord; tax: ClientTaxRecord | undefined; realm: AuthRealm }) {
  const [editing, setEditing] = useState(false);
  const [form] = Form.useForm<Values>();
  const [save, saving] = useSaveIdentifiersMutation();
  const toast = useToast();
  const ids = record.identifiers;
  const vat = tax ? VAT_SCHEMES.find((v) => v.value === tax.profile.vat_scheme)?.label : null;
  const registeredOffice = ids.registered_office ?? tax?.company?.registered_office ?? null;
  const sic = ids.sic_codes.length ? ids.sic_codes : (tax?.company?.sic_codes ?? []);

  async function onFinish(v: Values) {
    const body: ClientIdentifiersInput = {
      ...Object.fromEntries(FIELDS.map((f) => [f, v[f]?.trim() ? v[f]!.trim() : null])),
      sic_codes: (v.sic_codes ?? []).map((s) => s.trim()).filter(Boolean),
    } as ClientIdentifiersInput;
    try {
      const reply = await save({ id: record.client.id, body, realm }).unwrap();
      toast.success(serverText(reply.message), 'identifiers');
      setEditing(false);
    } catch (err) {
      // The server's per-field messages go beside their fields; anything else is a toast.
      const details = (err as { data?: { error?: { details?: { path?: string; message?: string }[] } } }).data?.error?.details ?? [];
      const fields = details
        .filter((d) => d.path && d.message)
        .map((d) => ({ name: d.path!.replace(/^\//, '').split('/')[0] as keyof Values, errors: [d.message!] }));
      if (fields.length) form.setFields(fields);
      else toast.error(serverText(errorBody(err)?.message ?? 'The identifiers could not be saved'), 'identifiers');
    }
  }

  return (
    <Card
      size="small"
      title="Identifiers"
      extra={
        record.can.edit && !editing ? (
          <Button size="small" onClick={() => setEditing(true)}>
            Edit identifiers
          </Button>
        ) : undefined
      }
    >
      {editing ? (
        <Form<Values>
          form={form}
          layout="vertical"
          name="identifiers"
          initialValues={{
            ...Object.fromEntries(FIELDS.map((f) => [f, ids[f] ?? ''])),
            sic_codes: ids.sic_codes,
          }}
          onFinish={(v) => void onFinish(v)}
        >
          <Flex wrap gap={16} className="identifiers-form">
            <Form.Item name="utr" label="UTR" rules={[check(validateUtr)]} extra="10 digits, from an HMRC letter">
              <Input inputMode="numeric" autoComplete="off" maxLength={20} />
            </Form.Item>
            <Form.Item name="vat_number" label="VAT registration number" rules={[check(validateVatNumber)]}>
              <Input autoComplete="off" maxLength={20} />
            </Form.Item>
            <Form.Item name="paye_reference" label="PAYE employer reference" rules={[check(validatePayeReference)]}>
              <Input autoComplete="off" maxLength={20} />
            </Form.Item>
            <Form.Item name="accounts_office_reference" label="Accounts Office reference" rules={[check(validateAccountsOfficeReference)]}>
              <Input autoComplete="off" maxLength={20} />
            </Form.Item>
            <Form.Item name="nino" label="National Insurance number" rules={[check(validateNino)]} extra="For individuals">
              <Input autoComplete="off" maxLength={20} />
            </Form.Item>
            <Form.Item name="registered_office" label="Registered office">
              <Input autoComplete="off" maxLength={500} />
            </Form.Item>
            <Form.Item name="sic_codes" label="SIC codes" rules={[sicRule]} extra="Up to 4, 5 digits each">
              <Select mode="tags" maxCount={4} tokenSeparators={[',', ' ']} open={false} suffixIcon={null} aria-label="SIC codes" />
            </Form.Item>
          </Flex>
          <Flex gap={8}>
            <Button type="primary" htmlType="submit" loading={saving.isLoading}>
              Save identifiers
            </Button>
            <Button onClick={() => setEditing(false)}>Cancel</Button>
          </Flex>
        </Form>
      ) : (
        <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
          <Descriptions.Item label="Business type">
            {dash(BUSINESS_TYPE_LABELS[record.client.business_type] ?? record.client.business_type)}
          </Descriptions.Item>
          <Descriptions.Item label="Company number">{dash(tax?.profile.company_number)}</Descriptions.Item>
          <Descriptions.Item label="Year end">{dash(yearEnd(tax))}</Descriptions.Item>
          <Descriptions.Item label="UTR">{dash(ids.utr)}</Descriptions.Item>
          <Descriptions.Item label="VAT registration number">{ids.vat_number ? `GB ${ids.vat_number}` : '—'}</Descriptions.Item>
          <Descriptions.Item label="VAT scheme">{dash(vat)}</Descriptions.Item>
          <Descriptions.Item label="PAYE employer reference">{dash(ids.paye_reference)}</Descriptions.Item>
          <Descriptions.Item label="Accounts Office reference">{dash(ids.accounts_office_reference)}</Descriptions.Item>
          <Descriptions.Item label="National Insurance number">{dash(ids.nino)}</Descriptions.Item>
          <Descriptions.Item label="Registered office">{dash(registeredOffice)}</Descriptions.Item>
          <Descriptions.Item label="SIC codes">{dash(sic.join(', '))}</Descriptions.Item>
          {ids.updated_at && (
            <Descriptions.Item label="Last changed">
              {formatDateTime(ids.updated_at)}
              {ids.updated_by_name ? ` by ${ids.updated_by_name}` : ''}
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
    </Card>
  );
}

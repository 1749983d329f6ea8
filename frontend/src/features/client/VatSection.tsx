import { formatDateTime, UK_STANDARD_VAT_RATE, VAT_MESSAGES, type VatRegistration } from '@countinghouse/proto';
import { Alert, Button, Card, Form, Input, InputNumber, Skeleton, Typography } from 'antd';
import { useEffect } from 'react';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useSaveVatRegistrationMutation, useVatRegistrationQuery } from './api';

interface Values {
  vat_number: string;
  rate: number;
  address: string;
}

function VatForm({ current }: { current: VatRegistration }) {
  const [form] = Form.useForm<Values>();
  const [save, saving] = useSaveVatRegistrationMutation();
  const toast = useToast();
  useEffect(
    () => form.setFieldsValue({ vat_number: current.vat_number ?? '', rate: current.rate, address: current.address }),
    [current, form],
  );
  const onFinish = async (v: Values) => {
    try {
      await save({ vat_number: v.vat_number.trim() || null, rate: v.rate, address: v.address }).unwrap();
      toast.success(serverText(VAT_MESSAGES.saved));
    } catch (err) {
      const e = errorBody(err);
      for (const d of e?.details ?? []) form.setFields([{ name: d.path.replace(/^\//, '') as keyof Values, errors: [d.message] }]);
      toast.error(serverText(e?.message ?? 'The VAT registration could not be saved.'));
    }
  };
  return (
    <Form<Values> form={form} name="vat" layout="vertical" onFinish={(v) => void onFinish(v)} disabled={saving.isLoading}>
      <Form.Item
        label="VAT registration number"
        name="vat_number"
        extra="Leave empty while the practice is not VAT-registered: prices then carry no VAT."
      >
        <Input maxLength={40} autoComplete="off" placeholder="GB 123 4567 89" />
      </Form.Item>
      <Form.Item label="VAT rate (%)" name="rate" rules={[{ required: true, message: VAT_MESSAGES.rateInvalid }]}>
        <InputNumber min={0} max={100} step={0.5} />
      </Form.Item>
      <Form.Item label="Practice address on invoices" name="address">
        <Input.TextArea rows={3} maxLength={500} autoComplete="street-address" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving.isLoading}>
        Save VAT registration
      </Button>
      {current.updated_at && (
        <Typography.Paragraph type="secondary" className="client-gap">
          Last saved {formatDateTime(current.updated_at)}. Invoices already issued keep the details they were made with.
        </Typography.Paragraph>
      )}
    </Form>
  );
}

/** Issue 33: the practice's VAT registration in /admin/settings (billing owns it: the rate on every price and invoice). */
export function VatRegistrationSection() {
  const q = useVatRegistrationQuery();
  return (
    <Card title="VAT registration">
      <Typography.Paragraph>
        A VAT-registered practice adds VAT (standard rate {UK_STANDARD_VAT_RATE}%) to its prices and issues a VAT invoice for every payment,
        showing this number and address.
      </Typography.Paragraph>
      {q.isError && <Alert type="error" showIcon title="The VAT registration could not be loaded." />}
      {q.isLoading && <Skeleton active />}
      {q.data && <VatForm current={q.data} />}
    </Card>
  );
}

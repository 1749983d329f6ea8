import { Form, Input, Select } from 'antd';
import { PHONE_STORED_MAX } from '@countinghouse/proto';
import { FORM_RULES } from '../../../shared/form-rules';
import { ClientSelect } from './ClientSelect';

/** A one-line text field; with requiredMessage it must not be blank. */
export function TextItem({
  label,
  name,
  requiredMessage,
  max,
  autoComplete,
}: {
  label: string;
  name: string;
  requiredMessage?: string;
  /** Characters (proto's NAME_MAX unless said). */
  max?: number;
  autoComplete?: string;
}) {
  return (
    <Form.Item label={label} name={name} rules={FORM_RULES.text(requiredMessage, max)}>
      <Input autoComplete={autoComplete} />
    </Form.Item>
  );
}

/** A required e-mail address. */
export function EmailItem({ label, name, requiredMessage }: { label: string; name: string; requiredMessage: string }) {
  return (
    <Form.Item label={label} name={name} rules={FORM_RULES.email(requiredMessage)}>
      <Input type="email" autoComplete="email" />
    </Form.Item>
  );
}

/** An optional telephone number, kept as given (it may come from another system): PHONE_STORED_MAX characters. */
export function PhoneItem({ label, name }: { label: string; name: string }) {
  return (
    <Form.Item label={label} name={name} rules={FORM_RULES.text(undefined, PHONE_STORED_MAX)}>
      <Input type="tel" autoComplete="tel" />
    </Form.Item>
  );
}

/** Optional free text over several lines. */
export function NotesItem({ label, name, max, rows }: { label: string; name: string; max: number; rows: number }) {
  return (
    <Form.Item label={label} name={name} rules={FORM_RULES.text(undefined, max)}>
      <Input.TextArea rows={rows} />
    </Form.Item>
  );
}

/** A required choice from a fixed list. */
export function RequiredSelectItem({ label, name, options }: { label: string; name: string; options: { value: string; label: string }[] }) {
  return (
    <Form.Item label={label} name={name} rules={[{ required: true }]}>
      <Select options={options} />
    </Form.Item>
  );
}

/** The client a record is for (field client_id), required. */
export function RequiredClientItem() {
  return (
    <Form.Item label="Client" name="client_id" rules={[{ required: true, message: 'Please choose a client' }]}>
      <ClientSelect allowClear={false} aria-label="Client" />
    </Form.Item>
  );
}

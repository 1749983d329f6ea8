import { Form, Input, Select } from 'antd';
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
  max: number;
  autoComplete?: string;
}) {
  return (
    <Form.Item
      label={label}
      name={name}
      rules={requiredMessage ? [{ required: true, whitespace: true, message: requiredMessage }, { max }] : [{ max }]}
    >
      <Input autoComplete={autoComplete} />
    </Form.Item>
  );
}

/** A required e-mail address. */
export function EmailItem({ label, name, requiredMessage }: { label: string; name: string; requiredMessage: string }) {
  return (
    <Form.Item
      label={label}
      name={name}
      rules={[
        { required: true, whitespace: true, message: requiredMessage },
        { type: 'email', message: 'Please enter a valid e-mail address' },
      ]}
    >
      <Input type="email" autoComplete="email" />
    </Form.Item>
  );
}

/** An optional telephone number. */
export function PhoneItem({ label, name }: { label: string; name: string }) {
  return (
    <Form.Item label={label} name={name} rules={[{ max: 40 }]}>
      <Input type="tel" autoComplete="tel" />
    </Form.Item>
  );
}

/** Optional free text over several lines. */
export function NotesItem({ label, name, max, rows }: { label: string; name: string; max: number; rows: number }) {
  return (
    <Form.Item label={label} name={name} rules={[{ max }]}>
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

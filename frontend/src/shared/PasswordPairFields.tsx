import { Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { LIMITS, MESSAGES } from '@countinghouse/proto';

/**
 * A new password and its confirmation (fields `password` and `confirm_password`), as every sign-up
 * form asks for them: the minimum length, and the confirmation re-checked when the password changes.
 */
export function PasswordPairFields({ label = 'Password' }: { label?: string } = {}) {
  return (
    <>
      <Form.Item
        label={label}
        name="password"
        rules={[
          { required: true, message: 'Please choose a password' },
          { min: LIMITS.minPasswordLength, message: MESSAGES.passwordTooShort },
        ]}
      >
        <Input.Password prefix={<LockOutlined aria-hidden="true" />} autoComplete="new-password" maxLength={200} />
      </Form.Item>
      <Form.Item
        label={`Confirm ${label.toLowerCase()}`}
        name="confirm_password"
        dependencies={['password']}
        rules={[
          { required: true, message: 'Please confirm your password' },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(MESSAGES.passwordsDoNotMatch)),
          }),
        ]}
      >
        <Input.Password prefix={<LockOutlined aria-hidden="true" />} autoComplete="new-password" maxLength={200} />
      </Form.Item>
    </>
  );
}

import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { KeyOutlined, LockOutlined } from '@ant-design/icons';
import { MESSAGES } from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { PasswordPairFields } from '../../shared/PasswordPairFields';
import { useToast } from '../../shared/toast';
import { useAdminChangePasswordMutation } from '../admin-auth/api';
import { useChangePasswordMutation } from './api';

type Values = { current_password: string; password: string; confirm_password: string };

/**
 * "Change password" for whoever is signed in: a person (client or staff, `realm="user"`) or an admin
 * panel account (`realm="admin"`). The current password is required; the server signs out every other
 * session of the account and keeps this one.
 */
export function ChangePasswordButton({ realm, staff = false }: { realm: 'user' | 'admin'; staff?: boolean }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const [changePerson, person] = useChangePasswordMutation();
  const [changeAdmin, admin] = useAdminChangePasswordMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const toast = useToast();
  const busy = person.isLoading || admin.isLoading;

  function close() {
    setOpen(false);
    setFailure(null);
    form.resetFields();
  }

  async function onFinish(values: Values) {
    setFailure(null);
    const body = { current_password: values.current_password, new_password: values.password, confirm_password: values.confirm_password };
    try {
      await (realm === 'admin' ? changeAdmin(body) : changePerson(body)).unwrap();
      toast.success(MESSAGES.passwordChanged, 'change-password');
      close();
    } catch (error) {
      setFailure(errorBody(error)?.message ?? MESSAGES.unexpectedError);
      form.setFieldValue('current_password', '');
    }
  }

  return (
    <>
      <Button icon={<KeyOutlined />} onClick={() => setOpen(true)}>
        Change password
      </Button>
      <Modal open={open} title="Change password" okText="Change password" onOk={() => form.submit()} confirmLoading={busy} onCancel={close}>
        <Typography.Paragraph type="secondary">
          Every other session of this account is signed out; you stay signed in here.
          {(staff || realm === 'admin') && ' A commonly used password is refused.'}
        </Typography.Paragraph>
        {failure && <Alert type="error" showIcon role="alert" className="auth-page__alert" title={failure} />}
        <Form<Values>
          form={form}
          name={`change-password-${realm}`}
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          disabled={busy}
        >
          <Form.Item
            label="Current password"
            name="current_password"
            rules={[{ required: true, message: 'Please enter your current password' }]}
          >
            <Input.Password prefix={<LockOutlined aria-hidden="true" />} autoComplete="current-password" maxLength={200} autoFocus />
          </Form.Item>
          <PasswordPairFields label="New password" />
          {/* Enter in a field submits the form (the modal's OK button is outside it). */}
          <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
        </Form>
      </Modal>
    </>
  );
}

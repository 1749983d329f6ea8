import { useState, type ReactNode } from 'react';
import { Alert, Modal, type FormInstance } from 'antd';
import { writeErrorText } from '../errors';
import type { ToastText } from '../../../shared/toast';

/** A form's failure: `attempt` clears it, runs the write and shows the write's error text if it fails. */
export function useFormFailure() {
  const [failure, setFailure] = useState<ToastText | null>(null);
  async function attempt(write: () => Promise<void>) {
    setFailure(null);
    try {
      await write();
    } catch (error) {
      setFailure(writeErrorText(error));
    }
  }
  return { failure, setFailure, attempt };
}

interface Props {
  open: boolean;
  title: ReactNode;
  okText: string;
  /** OK submits this form. */
  form: FormInstance;
  onClose: () => void;
  confirmLoading: boolean;
  width?: number;
  failure: ToastText | null;
  children: ReactNode;
}

/** A CRM form in a dialog: OK submits the form, and a failed write shows above it. */
export function FormModal({ open, title, okText, form, onClose, confirmLoading, width, failure, children }: Props) {
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={confirmLoading}
      width={width}
    >
      {failure && <Alert type="error" showIcon title={failure} role="alert" className="crm-form__alert" />}
      {children}
    </Modal>
  );
}

import { App } from 'antd';
import { deadlineKindLabel, formatDate, type Deadline } from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useMarkDeadlineDoneMutation } from './api';

/** Mark done, after a confirmation that names the deadline. */
export function useMarkDone(realm: AuthRealm = 'admin') {
  const { modal } = App.useApp();
  const toast = useToast();
  const [markDone] = useMarkDeadlineDoneMutation();
  return (d: Deadline) =>
    modal.confirm({
      title: 'Mark this deadline as done?',
      content: `${deadlineKindLabel(d.kind)} for ${d.client_name} (${d.period}), due ${formatDate(d.due_on)}.`,
      okText: 'Mark done',
      cancelText: 'Cancel',
      async onOk() {
        try {
          const reply = await markDone({ id: d.id, realm }).unwrap();
          toast.success(serverText(reply.message), 'deadline-done');
        } catch (err) {
          toast.error(serverText(errorBody(err)?.message ?? 'The deadline could not be marked done'), 'deadline-done');
        }
      },
    });
}

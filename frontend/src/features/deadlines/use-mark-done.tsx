import { App, Checkbox, DatePicker, Flex, Input, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { deadlineKindLabel, formatDate, type Deadline, type DeadlineDoneInput } from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useDeadlineDoneMutation, useDeadlineUndoMutation } from '../workspace/api';

interface Filing {
  filed_on: string;
  reference: string;
  previous_agent: boolean;
}

/** The filing record asked for when a deadline is marked done: the day, the reference, who filed it. */
function FilingFields({ d, value }: { d: Deadline; value: Filing }) {
  const [filedOn, setFiledOn] = useState(dayjs(value.filed_on));
  const [prev, setPrev] = useState(value.previous_agent);
  return (
    <Flex vertical gap={8} className="deadline-filing">
      <Typography.Text>
        {deadlineKindLabel(d.kind)} for {d.client_name} ({d.period}), due {formatDate(d.due_on)}.
      </Typography.Text>
      <label>
        Filing date
        <DatePicker
          aria-label="Filing date"
          format="DD/MM/YYYY"
          allowClear={false}
          value={filedOn}
          disabledDate={(day) => day.isAfter(dayjs(), 'day')}
          onChange={(day) => {
            if (!day) return;
            setFiledOn(day);
            value.filed_on = day.format('YYYY-MM-DD');
          }}
          style={{ width: '100%' }}
        />
      </label>
      <label>
        Reference (e.g. HMRC submission or Companies House transaction id)
        <Input aria-label="Reference" maxLength={100} autoComplete="off" onChange={(e) => (value.reference = e.target.value)} />
      </label>
      <Checkbox
        checked={prev}
        onChange={(e) => {
          setPrev(e.target.checked);
          value.previous_agent = e.target.checked;
        }}
      >
        Filed by the previous agent (due before we took the client on)
      </Checkbox>
    </Flex>
  );
}

/** Mark done, after a dialog that names the deadline and records the filing date, reference and who filed it. */
export function useMarkDone(realm: AuthRealm = 'admin') {
  const { modal } = App.useApp();
  const toast = useToast();
  const [markDone] = useDeadlineDoneMutation();
  return (d: Deadline) => {
    const value: Filing = { filed_on: dayjs().format('YYYY-MM-DD'), reference: '', previous_agent: false };
    modal.confirm({
      title: 'Mark this deadline as done?',
      content: <FilingFields d={d} value={value} />,
      okText: 'Mark done',
      cancelText: 'Cancel',
      async onOk() {
        const body: DeadlineDoneInput = {
          filed_on: value.filed_on,
          ...(value.reference.trim() ? { reference: value.reference.trim() } : {}),
          ...(value.previous_agent ? { filed_by: 'previous_agent' as const } : {}),
        };
        try {
          const reply = await markDone({ id: d.id, body, realm }).unwrap();
          toast.success(serverText(reply.message), 'deadline-done');
        } catch (err) {
          toast.error(serverText(errorBody(err)?.message ?? 'The deadline could not be marked done'), 'deadline-done');
        }
      },
    });
  };
}

/** Undo a deadline marked done by mistake (it opens again). */
export function useUndoDone(realm: AuthRealm = 'admin') {
  const toast = useToast();
  const [undo] = useDeadlineUndoMutation();
  return async (d: Deadline) => {
    try {
      const reply = await undo({ id: d.id, realm }).unwrap();
      toast.success(serverText(reply.message), 'deadline-done');
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? 'The deadline could not be reopened'), 'deadline-done');
    }
  };
}

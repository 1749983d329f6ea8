import { useEffect } from 'react';
import { Col, DatePicker, Form, Row, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { TASK_PRIORITIES, TASK_STATUSES, type Task, type TaskCreateBody, type TaskPriority, type TaskStatus } from '@countinghouse/proto';
import { useCreateTaskMutation, useTeamMembersQuery, useUpdateTaskMutation } from '../api';
import { TASK_PRIORITY_LABELS, TASK_STATUS_LABELS } from '../labels';
import { ClientSelect } from './ClientSelect';
import { NotesItem, RequiredSelectItem, TextItem } from './FormFields';
import { FormModal, useFormFailure } from './FormModal';

interface Values {
  title: string;
  description?: string;
  client_id?: string | null;
  assignee_id?: string | null;
  due_date?: Dayjs | null;
  status: TaskStatus;
  priority: TaskPriority;
}

interface Props {
  open: boolean;
  task?: Task | null;
  onClose: () => void;
}

export const TASK_STATUS_OPTIONS = TASK_STATUSES.map((s) => ({ value: s, label: TASK_STATUS_LABELS[s] }));
export const TASK_PRIORITY_OPTIONS = TASK_PRIORITIES.map((p) => ({ value: p, label: TASK_PRIORITY_LABELS[p] }));

/** New task and Edit task: a title is required; client, assignee and due date are optional. */
export function TaskFormModal({ open, task, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const [create, creating] = useCreateTaskMutation();
  const [update, updating] = useUpdateTaskMutation();
  const { failure, setFailure, attempt } = useFormFailure();
  const team = useTeamMembersQuery(undefined, { skip: !open });

  useEffect(() => {
    if (!open) return;
    setFailure(null);
    form.resetFields();
    form.setFieldsValue(
      task
        ? {
            title: task.title,
            description: task.description ?? '',
            client_id: task.client_id,
            assignee_id: task.assignee_id,
            due_date: task.due_date ? dayjs(task.due_date) : null,
            status: task.status,
            priority: task.priority,
          }
        : { status: 'pending', priority: 'medium' },
    );
  }, [open, task, form]);

  const assignees = (team.data?.members ?? []).map((m) => ({ value: m.user_id, label: `${m.name} (${m.roles.join(', ')})` }));
  if (task?.assignee_id && task.assignee_name && !assignees.some((a) => a.value === task.assignee_id)) {
    assignees.unshift({ value: task.assignee_id, label: task.assignee_name });
  }

  async function onFinish(values: Values) {
    const body: TaskCreateBody = {
      title: values.title.trim(),
      description: values.description?.trim() ? values.description.trim() : null,
      client_id: values.client_id ?? null,
      assignee_id: values.assignee_id ?? null,
      due_date: values.due_date ? values.due_date.format('YYYY-MM-DD') : null,
      status: values.status,
      priority: values.priority,
    };
    await attempt(async () => {
      if (task) await update({ id: task.id, body }).unwrap();
      else await create(body).unwrap();
      onClose();
    });
  }

  return (
    <FormModal
      open={open}
      title={task ? 'Edit task' : 'New task'}
      okText={task ? 'Save changes' : 'Create task'}
      form={form}
      onClose={onClose}
      confirmLoading={creating.isLoading || updating.isLoading}
      width={640}
      failure={failure}
    >
      <Form<Values> form={form} layout="vertical" name="task" onFinish={onFinish}>
        <TextItem label="Title" name="title" requiredMessage="Please enter a title" />
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label="Client" name="client_id">
              <ClientSelect initialLabel={task?.client_company_name} aria-label="Client" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Assignee" name="assignee_id">
              <Select
                options={assignees}
                allowClear
                loading={team.isFetching}
                placeholder="Unassigned"
                showSearch={{ optionFilterProp: 'label' }}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="Due date" name="due_date">
              <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <RequiredSelectItem label="Status" name="status" options={TASK_STATUS_OPTIONS} />
          </Col>
          <Col xs={24} md={8}>
            <RequiredSelectItem label="Priority" name="priority" options={TASK_PRIORITY_OPTIONS} />
          </Col>
        </Row>
        <NotesItem label="Description" name="description" max={5000} rows={3} />
      </Form>
    </FormModal>
  );
}

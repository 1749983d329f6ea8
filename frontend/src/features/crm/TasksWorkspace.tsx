import { useEffect, useState } from 'react';
import { Button, Flex, Select, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { formatDate, type Task, type TaskPriority, type TaskStatus } from '@countinghouse/proto';
import { useTaskQuery, useTasksQuery } from './api';
import { SearchBox, unlessAll } from './components/ListToolbar';
import { tablePagination, usePaging } from './components/paging';
import { TASK_PRIORITY_OPTIONS, TASK_STATUS_OPTIONS, TaskFormModal } from './components/TaskFormModal';
import { TASK_PRIORITY_COLOURS, TASK_PRIORITY_LABELS, TASK_STATUS_COLOURS, TASK_STATUS_LABELS } from './labels';
import { useDebounced } from '../../shared/use-debounced';
import { clientFirst } from '../../shared/client-first';
import { useNarrow } from '../../shared/use-narrow';
import { LoadFailed } from './components/LoadFailed';
import './crm.css';

// Not in the spec's catalogue (it has no tasks screen), so said inline rather than as a toast.
const LOAD_FAILED = 'Failed to load tasks';

const isOverdue = (t: Task) =>
  t.due_date !== null && t.status !== 'completed' && t.status !== 'cancelled' && t.due_date < new Date().toISOString().slice(0, 10);

export function TasksWorkspace({ openId, onOpened }: { openId?: string | null; onOpened?: () => void }) {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput.trim(), 300);
  const [status, setStatus] = useState<'all' | TaskStatus>('all');
  const [priority, setPriority] = useState<'all' | TaskPriority>('all');
  const paging = usePaging();
  const { page, pageSize, andFirstPage } = paging;
  const [form, setForm] = useState<{ open: boolean; task: Task | null }>({ open: false, task: null });
  const narrow = useNarrow();
  const tasks = useTasksQuery({ search, status: unlessAll(status), priority: unlessAll(priority), page, page_size: pageSize });

  const opened = useTaskQuery(openId ?? '', { skip: !openId });
  useEffect(() => {
    if (openId && opened.data) {
      setForm({ open: true, task: opened.data });
      onOpened?.();
    }
  }, [openId, opened.data, onOpened]);

  const columns: TableColumnsType<Task> = [
    {
      title: 'Title',
      dataIndex: 'title',
      render: (_: unknown, t) => (
        <div>
          <Typography.Text strong>{t.title}</Typography.Text>
          {t.description && (
            <div>
              <Typography.Text type="secondary" ellipsis={{ tooltip: t.description }} style={{ maxWidth: 320 }}>
                {t.description}
              </Typography.Text>
            </div>
          )}
        </div>
      ),
    },
    { title: 'Client', dataIndex: 'client_company_name', render: (c: string | null) => c ?? '—' },
    { title: 'Assignee', dataIndex: 'assignee_name', render: (a: string | null) => a ?? 'Unassigned' },
    {
      title: 'Due',
      dataIndex: 'due_date',
      render: (_: unknown, t) =>
        t.due_date ? <Typography.Text type={isOverdue(t) ? 'danger' : undefined}>{formatDate(t.due_date)}</Typography.Text> : '—',
    },
    { title: 'Status', dataIndex: 'status', render: (s: TaskStatus) => <Tag color={TASK_STATUS_COLOURS[s]}>{TASK_STATUS_LABELS[s]}</Tag> },
    {
      title: 'Priority',
      dataIndex: 'priority',
      render: (p: TaskPriority) => <Tag color={TASK_PRIORITY_COLOURS[p]}>{TASK_PRIORITY_LABELS[p]}</Tag>,
    },
    {
      title: 'Actions',
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, t) => (
        <Tooltip title="Edit task">
          <Button size="small" icon={<EditOutlined />} aria-label={`Edit ${t.title}`} onClick={() => setForm({ open: true, task: t })} />
        </Tooltip>
      ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} justify="space-between">
        <Flex wrap gap={8} role="search" aria-label="Filter tasks" className="crm-toolbar">
          <SearchBox
            value={searchInput}
            onChange={andFirstPage(setSearchInput)}
            placeholder="Search tasks by title..."
            label="Search tasks"
          />
          <Select
            value={status}
            onChange={andFirstPage(setStatus)}
            options={[{ value: 'all', label: 'All Status' }, ...TASK_STATUS_OPTIONS]}
            aria-label="Status filter"
            className="crm-toolbar__select"
          />
          <Select
            value={priority}
            onChange={andFirstPage(setPriority)}
            options={[{ value: 'all', label: 'All Priorities' }, ...TASK_PRIORITY_OPTIONS]}
            aria-label="Priority filter"
            className="crm-toolbar__select"
          />
        </Flex>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true, task: null })}>
          New task
        </Button>
      </Flex>
      {tasks.isError && <LoadFailed text={LOAD_FAILED} onRetry={() => void tasks.refetch()} />}
      <Table<Task>
        rowKey="id"
        size="middle"
        // At 390 px the client's name comes first (issue 26).
        columns={clientFirst(columns, narrow, 'client_company_name')}
        dataSource={tasks.data?.tasks}
        loading={tasks.isFetching}
        scroll={{ x: 900 }}
        tableLayout="auto"
        locale={{
          emptyText: tasks.isError
            ? LOAD_FAILED
            : search || status !== 'all' || priority !== 'all'
              ? 'No tasks match these filters'
              : 'No tasks yet',
        }}
        pagination={tablePagination(paging, tasks.data?.total ?? 0)}
      />
      {form.open && <TaskFormModal open task={form.task} onClose={() => setForm({ open: false, task: null })} />}
    </Flex>
  );
}

import { useId, useState } from 'react';
import { Alert, Button, Card, Empty, Flex, Input, InputNumber, Modal, Popconfirm, Select, Table, Typography } from 'antd';
import {
  DEADLINE_KINDS,
  DEFAULT_REMINDER_SCHEDULE,
  deadlineKindLabel,
  ITEM_KINDS,
  MESSAGES,
  REQUEST_DOCUMENT_TYPES,
  type ItemKind,
  type RequestDocumentType,
  type RequestTemplate,
  type TemplateBody,
  type TemplateItem,
} from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import {
  useCreateRequestTemplateMutation,
  useDeleteRequestTemplateMutation,
  useRequestTemplatesQuery,
  useUpdateRequestTemplateMutation,
} from './api';
import { LoadingSpin } from '../../shared/LoadingSpin';

const itemKindLabel = (k: string) => ITEM_KINDS.find((x) => x.value === k)?.label ?? k;
const docTypeLabel = (t: string | null) => REQUEST_DOCUMENT_TYPES.find((x) => x.value === t)?.label ?? 'Other';

/** "14, 7, 3 and 1 days before; every 3 days when overdue". */
export function scheduleText({ before_days, overdue_every_days }: TemplateBody['schedule']): string {
  const every = overdue_every_days === 1 ? 'every day when overdue' : `every ${overdue_every_days} days when overdue`;
  if (before_days.length === 0) return `When sent; ${every}`;
  const days = before_days.length === 1 ? `${before_days[0]}` : `${before_days.slice(0, -1).join(', ')} and ${before_days.at(-1)}`;
  return `When sent, then ${days} day${before_days.length === 1 && before_days[0] === 1 ? '' : 's'} before; ${every}`;
}

/** "14, 7, 3, 1" → [14, 7, 3, 1] (largest first, no repeats), or a problem to show. */
export function parseBeforeDays(text: string): number[] | string {
  const parts = text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const days: number[] = [];
  for (const p of parts) {
    if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 365) return 'Days before the due date: whole numbers from 1 to 365';
    days.push(Number(p));
  }
  if (days.length > 20) return 'At most 20 reminders before the due date';
  return [...new Set(days)].sort((a, b) => b - a);
}

interface Draft {
  name: string;
  items: TemplateItem[];
  beforeDays: string;
  overdueEvery: number | null;
  deadlineKind: string | null;
  leadDays: number | null;
}

const blankDraft = (): Draft => ({
  name: '',
  items: [{ kind: 'document', label: '', document_type: 'bank_statements' }],
  beforeDays: DEFAULT_REMINDER_SCHEDULE.before_days.join(', '),
  overdueEvery: DEFAULT_REMINDER_SCHEDULE.overdue_every_days,
  deadlineKind: null,
  leadDays: null,
});

const draftOf = (t: RequestTemplate): Draft => ({
  name: t.name,
  items: t.items.map((i) => ({ ...i })),
  beforeDays: t.schedule.before_days.join(', '),
  overdueEvery: t.schedule.overdue_every_days,
  deadlineKind: t.deadline_kind,
  leadDays: t.lead_days,
});

/** The draft as the API's body, or the first problem with it (said beside the Save button). */
function bodyOf(d: Draft): TemplateBody | string {
  if (!d.name.trim()) return 'Give the template a name';
  if (d.items.length === 0) return 'Add at least one item';
  const blank = d.items.findIndex((i) => !i.label.trim());
  if (blank >= 0) return `Say what item ${blank + 1} asks for`;
  const before = parseBeforeDays(d.beforeDays);
  if (typeof before === 'string') return before;
  if (!d.overdueEvery || d.overdueEvery < 1 || d.overdueEvery > 90) return 'Once overdue, remind every 1 to 90 days';
  if (d.deadlineKind && (d.leadDays === null || d.leadDays < 0 || d.leadDays > 400))
    return 'Say how many days before the deadline the request opens (0 to 400)';
  return {
    name: d.name.trim(),
    items: d.items.map((i) => ({
      kind: i.kind,
      label: i.label.trim(),
      document_type: i.kind === 'document' ? (i.document_type ?? 'other') : null,
    })),
    schedule: { before_days: before, overdue_every_days: d.overdueEvery },
    deadline_kind: d.deadlineKind,
    lead_days: d.deadlineKind ? d.leadDays : null,
  };
}

function TemplateForm({
  template,
  realm,
  onClose,
}: {
  /** null: a new template. */
  template: RequestTemplate | null;
  realm: AuthRealm;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(template ? draftOf(template) : blankDraft());
  const [problem, setProblem] = useState<string | null>(null);
  const [create, creating] = useCreateRequestTemplateMutation();
  const [update, updating] = useUpdateRequestTemplateMutation();
  const toast = useToast();
  const ids = { name: useId(), kind: useId(), lead: useId(), before: useId(), overdue: useId() };
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setItem = (n: number, patch: Partial<TemplateItem>) =>
    setDraft((d) => ({ ...d, items: d.items.map((x, i) => (i === n ? { ...x, ...patch } : x)) }));

  const save = async () => {
    const body = bodyOf(draft);
    if (typeof body === 'string') return setProblem(body);
    setProblem(null);
    try {
      if (template) await update({ id: template.id, realm, ...body }).unwrap();
      else await create({ realm, ...body }).unwrap();
      toast.success(serverText(template ? `Template saved: ${body.name}` : `Template added: ${body.name}`), 'request-template');
      onClose();
    } catch (err) {
      setProblem(errorBody(err)?.message ?? MESSAGES.unexpectedError);
    }
  };

  return (
    <Modal
      open
      width={760}
      title={template ? `Edit template: ${template.name}` : 'New request template'}
      okText="Save template"
      onOk={() => void save()}
      okButtonProps={{ loading: creating.isLoading || updating.isLoading }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <label htmlFor={ids.name}>Title</label>
        <Input id={ids.name} value={draft.name} onChange={(e) => set({ name: e.target.value })} maxLength={200} />
        <fieldset className="requests-items-fieldset">
          <legend>Items</legend>
          {draft.items.map((item, n) => (
            <Flex key={n} wrap gap={8} align="center" className="requests-item">
              <Input
                aria-label={`Item ${n + 1}`}
                value={item.label}
                onChange={(e) => setItem(n, { label: e.target.value })}
                maxLength={300}
                style={{ minWidth: 200, flex: 1 }}
              />
              <Select
                aria-label={`Item ${n + 1} kind`}
                value={item.kind}
                onChange={(k: ItemKind) =>
                  setItem(n, { kind: k, document_type: k === 'document' ? (item.document_type ?? 'other') : null })
                }
                options={ITEM_KINDS.map((k) => ({ value: k.value, label: k.label }))}
                style={{ minWidth: 180 }}
              />
              {item.kind === 'document' && (
                <Select
                  aria-label={`Item ${n + 1} document type`}
                  value={item.document_type ?? 'other'}
                  onChange={(t: RequestDocumentType) => setItem(n, { document_type: t })}
                  options={REQUEST_DOCUMENT_TYPES.map((t) => ({ value: t.value, label: t.label }))}
                  style={{ minWidth: 160 }}
                />
              )}
              <Button onClick={() => set({ items: draft.items.filter((_, i) => i !== n) })} disabled={draft.items.length === 1}>
                Remove item {n + 1}
              </Button>
            </Flex>
          ))}
          <Button
            onClick={() => set({ items: [...draft.items, { kind: 'document', label: '', document_type: 'other' }] })}
            disabled={draft.items.length >= 50}
          >
            Add item
          </Button>
        </fieldset>
        <fieldset className="requests-items-fieldset">
          <legend>Opened from deadlines</legend>
          <Flex wrap gap={12} align="end">
            <Flex vertical gap={4}>
              <label htmlFor={ids.kind}>Deadline kind</label>
              <Select
                id={ids.kind}
                allowClear
                placeholder="None: sent by hand only"
                value={draft.deadlineKind ?? undefined}
                onChange={(k?: string) => set({ deadlineKind: k ?? null, leadDays: k ? (draft.leadDays ?? 21) : null })}
                options={DEADLINE_KINDS.map((k) => ({ value: k.value, label: k.label }))}
                style={{ minWidth: 280 }}
              />
            </Flex>
            <Flex vertical gap={4}>
              <label htmlFor={ids.lead}>Days before the deadline</label>
              <InputNumber
                id={ids.lead}
                min={0}
                max={400}
                precision={0}
                disabled={!draft.deadlineKind}
                value={draft.leadDays}
                onChange={(v) => set({ leadDays: v })}
              />
            </Flex>
          </Flex>
        </fieldset>
        <fieldset className="requests-items-fieldset">
          <legend>Reminders</legend>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            E-mailed to the client while any item is open: when sent, on these days before the due date, then regularly once overdue; never
            more than one a day.
          </Typography.Paragraph>
          <Flex wrap gap={12} align="end">
            <Flex vertical gap={4}>
              <label htmlFor={ids.before}>Days before the due date</label>
              <Input
                id={ids.before}
                value={draft.beforeDays}
                onChange={(e) => set({ beforeDays: e.target.value })}
                placeholder="14, 7, 3, 1"
                style={{ width: 200 }}
              />
            </Flex>
            <Flex vertical gap={4}>
              <label htmlFor={ids.overdue}>Once overdue, every (days)</label>
              <InputNumber
                id={ids.overdue}
                min={1}
                max={90}
                precision={0}
                value={draft.overdueEvery}
                onChange={(v) => set({ overdueEvery: v })}
              />
            </Flex>
          </Flex>
        </fieldset>
        {problem && <Alert type="error" showIcon title={problem} />}
      </Flex>
    </Modal>
  );
}

/**
 * The practice's request templates (requests.templates: managers): title, items, the deadline kind that
 * opens it with its lead time, and the reminder schedule (issue #28).
 */
export function RequestTemplatesEditor({ realm }: { realm: AuthRealm }) {
  const templates = useRequestTemplatesQuery({ realm });
  const [remove] = useDeleteRequestTemplateMutation();
  const [editing, setEditing] = useState<{ template: RequestTemplate | null } | null>(null);
  const toast = useToast();
  const rows = templates.data?.templates ?? [];

  const del = (t: RequestTemplate) =>
    remove({ id: t.id, realm })
      .unwrap()
      .then(
        (r) => toast.success(serverText(`${r.message}: ${t.name}`), 'request-template'),
        (e) => toast.error(serverText(errorBody(e)?.message ?? MESSAGES.unexpectedError), 'request-template'),
      );

  return (
    <Card
      title={<h2 className="requests-card-title">Request templates</h2>}
      extra={
        <Button type="primary" onClick={() => setEditing({ template: null })}>
          New template
        </Button>
      }
    >
      {templates.isLoading && <LoadingSpin label="Loading templates" />}
      {templates.isError && <Typography.Text type="danger">The templates could not be loaded.</Typography.Text>}
      {templates.data && rows.length === 0 && <Empty description="No templates yet" />}
      {rows.length > 0 && (
        <Table<RequestTemplate>
          rowKey="id"
          size="small"
          pagination={false}
          scroll={{ x: true }}
          dataSource={rows}
          columns={[
            { title: 'Template', dataIndex: 'name' },
            {
              title: 'Items',
              key: 'items',
              render: (_: unknown, t) => (
                <ul className="requests-template-items">
                  {t.items.map((i, n) => (
                    <li key={n}>
                      {i.label}{' '}
                      <Typography.Text type="secondary">
                        ({i.kind === 'document' ? docTypeLabel(i.document_type) : itemKindLabel(i.kind)})
                      </Typography.Text>
                    </li>
                  ))}
                </ul>
              ),
            },
            {
              title: 'Opened',
              key: 'opened',
              render: (_: unknown, t) =>
                t.deadline_kind ? `${t.lead_days} days before: ${deadlineKindLabel(t.deadline_kind)}` : 'By hand',
            },
            { title: 'Reminders', key: 'schedule', render: (_: unknown, t) => scheduleText(t.schedule) },
            {
              title: 'Actions',
              key: 'actions',
              render: (_: unknown, t) => (
                <Flex gap={4} wrap>
                  <Button size="small" onClick={() => setEditing({ template: t })} aria-label={`Edit ${t.name}`}>
                    Edit
                  </Button>
                  <Popconfirm
                    title={`Delete the template ${t.name}?`}
                    okText="Delete"
                    okButtonProps={{ danger: true }}
                    onConfirm={() => del(t)}
                  >
                    <Button size="small" danger aria-label={`Delete ${t.name}`}>
                      Delete
                    </Button>
                  </Popconfirm>
                </Flex>
              ),
            },
          ]}
        />
      )}
      {editing && <TemplateForm template={editing.template} realm={realm} onClose={() => setEditing(null)} />}
    </Card>
  );
}

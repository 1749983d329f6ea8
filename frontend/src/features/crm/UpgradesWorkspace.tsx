import { useState } from 'react';
import { Button, Flex, Form, Popconfirm, Select, Tag, Typography, type TableColumnsType } from 'antd';
import { ArrowRightOutlined, PlusOutlined } from '@ant-design/icons';
import {
  UPGRADE_STATUSES,
  UPGRADE_TRANSITIONS,
  formatDate,
  formatGBP,
  monthlyFeeFor,
  type ClientUpgrade,
  type UpgradeStatus,
} from '@countinghouse/proto';
import { useCreateUpgradeMutation, useUpdateUpgradeMutation, useUpgradesQuery } from './api';
import { NotesItem, RequiredClientItem } from './components/FormFields';
import { FormModal, useFormFailure } from './components/FormModal';
import { unlessAll } from './components/ListToolbar';
import { PagedTable } from './components/PagedTable';
import { usePaging } from './components/paging';
import { writeErrorText } from './errors';
import { PACKAGE_OPTIONS, UPGRADE_STATUS_COLOURS, UPGRADE_STATUS_LABELS } from './labels';
import { useToast } from '../../shared/toast';
import './crm.css';

const LOAD_FAILED = 'Failed to load upgrade requests';

/** The action button for each allowed move (UPGRADE_TRANSITIONS). */
const ACTIONS: Record<Exclude<UpgradeStatus, 'pending'>, { label: string; danger?: boolean; primary?: boolean }> = {
  approved: { label: 'Approve', primary: true },
  completed: { label: 'Complete' },
  rejected: { label: 'Reject', danger: true },
};

export function UpgradesWorkspace() {
  const [status, setStatus] = useState<'all' | UpgradeStatus>('pending');
  const paging = usePaging();
  const { page, pageSize, andFirstPage } = paging;
  const [requesting, setRequesting] = useState(false);
  const [savingId, setSavingId] = useState<string | null>(null);
  const upgrades = useUpgradesQuery({ status: unlessAll(status), page, page_size: pageSize });
  const [update] = useUpdateUpgradeMutation();
  const toast = useToast();

  async function decide(upgrade: ClientUpgrade, next: UpgradeStatus) {
    setSavingId(upgrade.id);
    try {
      await update({ id: upgrade.id, body: { status: next } }).unwrap();
    } catch (error) {
      toast.error(writeErrorText(error), 'upgrade-decision');
    } finally {
      setSavingId(null);
    }
  }

  const columns: TableColumnsType<ClientUpgrade> = [
    { title: 'Client', dataIndex: 'client_company_name', render: (c: string) => <Typography.Text strong>{c}</Typography.Text> },
    {
      title: 'Change',
      key: 'change',
      render: (_: unknown, u) => (
        <Flex align="center" gap={6} wrap>
          <span>
            {u.from_package ?? 'No package'} <Typography.Text type="secondary">({formatGBP(u.from_monthly_fee)}/month)</Typography.Text>
          </span>
          <ArrowRightOutlined aria-label="to" />
          <span>
            {u.to_package} <Typography.Text type="secondary">({formatGBP(u.to_monthly_fee)}/month)</Typography.Text>
          </span>
        </Flex>
      ),
    },
    {
      title: 'Status',
      dataIndex: 'status',
      render: (s: UpgradeStatus) => <Tag color={UPGRADE_STATUS_COLOURS[s]}>{UPGRADE_STATUS_LABELS[s]}</Tag>,
    },
    { title: 'Requested', dataIndex: 'requested_at', render: (d: string) => formatDate(d) },
    { title: 'Decided', dataIndex: 'decided_at', render: (d: string | null) => (d ? formatDate(d) : '—') },
    { title: 'Notes', dataIndex: 'notes', render: (n: string | null) => n ?? '—' },
    {
      title: 'Actions',
      key: 'actions',
      fixed: 'right' as const,
      className: 'crm-table-actions',
      render: (_: unknown, u) => (
        <Flex gap={4}>
          {UPGRADE_TRANSITIONS[u.status].map((next) => {
            const action = ACTIONS[next as keyof typeof ACTIONS];
            const button = (
              <Button
                key={next}
                size="small"
                type={action.primary ? 'primary' : 'default'}
                danger={action.danger}
                loading={savingId === u.id}
                aria-label={`${action.label} upgrade for ${u.client_company_name}`}
                onClick={next === 'rejected' ? undefined : () => void decide(u, next)}
              >
                {action.label}
              </Button>
            );
            return next === 'rejected' ? (
              <Popconfirm
                key={next}
                title={`Reject the upgrade for ${u.client_company_name}?`}
                okText="Reject"
                okButtonProps={{ danger: true }}
                onConfirm={() => decide(u, next)}
              >
                {button}
              </Popconfirm>
            ) : (
              button
            );
          })}
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} justify="space-between">
        <Select
          value={status}
          onChange={andFirstPage(setStatus)}
          options={[{ value: 'all', label: 'All Status' }, ...UPGRADE_STATUSES.map((s) => ({ value: s, label: UPGRADE_STATUS_LABELS[s] }))]}
          aria-label="Status filter"
          className="crm-toolbar__select"
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setRequesting(true)}>
          Request upgrade
        </Button>
      </Flex>
      <PagedTable<ClientUpgrade>
        list={upgrades}
        rows={upgrades.data?.upgrades}
        total={upgrades.data?.total ?? 0}
        columns={columns}
        paging={paging}
        loadFailed={LOAD_FAILED}
        emptyText={status === 'all' ? 'No upgrade requests yet' : `No ${UPGRADE_STATUS_LABELS[status].toLowerCase()} upgrade requests`}
      />
      {requesting && <RequestUpgradeModal open onClose={() => setRequesting(false)} />}
    </Flex>
  );
}

interface RequestValues {
  client_id: string;
  to_package: string;
  notes?: string;
}

function RequestUpgradeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<RequestValues>();
  const [create, { isLoading }] = useCreateUpgradeMutation();
  const { failure, attempt } = useFormFailure();
  const toPackage = Form.useWatch('to_package', form);

  async function onFinish(values: RequestValues) {
    await attempt(async () => {
      await create({ client_id: values.client_id, to_package: values.to_package, notes: values.notes?.trim() || null }).unwrap();
      form.resetFields();
      onClose();
    });
  }

  return (
    <FormModal
      open={open}
      title="Request upgrade"
      okText="Request upgrade"
      form={form}
      onClose={onClose}
      confirmLoading={isLoading}
      failure={failure}
    >
      <Form<RequestValues> form={form} layout="vertical" name="request-upgrade" onFinish={onFinish}>
        <RequiredClientItem />
        <Form.Item
          label="New package"
          name="to_package"
          rules={[{ required: true, message: 'Please choose a package' }]}
          extra={toPackage ? `Monthly fee ${formatGBP(monthlyFeeFor(toPackage))}/month` : undefined}
        >
          <Select options={PACKAGE_OPTIONS} placeholder="Choose a package" />
        </Form.Item>
        <NotesItem label="Notes" name="notes" max={5000} rows={3} />
      </Form>
    </FormModal>
  );
}

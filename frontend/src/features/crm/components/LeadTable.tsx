import { Button, Flex, Select, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { EditOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { formatDate, formatGBP, type Lead, type LeadStage } from '@countinghouse/proto';
import { BUSINESS_TYPE_LABELS } from '@countinghouse/proto';
import { STAGE_OPTIONS } from '../labels';
import { tablePagination } from './paging';
import { StageBadge } from './StatusBadge';

interface Props {
  leads: Lead[] | undefined;
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number, pageSize: number) => void;
  loading: boolean;
  emptyText: string;
  savingStageOf: string | null;
  onStageChange: (lead: Lead, stage: LeadStage) => void;
  onEdit: (lead: Lead) => void;
  onConvert: (lead: Lead) => void;
}

/** Leads as a table, newest first, with the stage editable in place. */
export function LeadTable(props: Props) {
  const { leads, total, page, pageSize, onPage, loading, emptyText, savingStageOf, onStageChange, onEdit, onConvert } = props;
  const columns: TableColumnsType<Lead> = [
    {
      title: 'Name',
      dataIndex: 'name',
      render: (_: unknown, l) => (
        <div>
          <Typography.Text strong>{l.name}</Typography.Text>
          {l.email && (
            <div>
              <Typography.Text type="secondary">{l.email}</Typography.Text>
            </div>
          )}
        </div>
      ),
    },
    { title: 'Company', dataIndex: 'company_name', render: (c: string | null) => c ?? '—' },
    {
      title: 'Stage',
      dataIndex: 'stage',
      render: (_: unknown, l) => (
        <Flex gap={6} align="center">
          <StageBadge stage={l.stage} />
          <Select<LeadStage>
            size="small"
            value={l.stage}
            options={STAGE_OPTIONS}
            onChange={(stage) => onStageChange(l, stage)}
            aria-label={`Stage of ${l.name}`}
            loading={savingStageOf === l.id}
            disabled={savingStageOf === l.id || l.converted_client_id !== null}
            popupMatchSelectWidth={false}
            variant="borderless"
            labelRender={() => null}
            className="crm-stage-picker"
          />
        </Flex>
      ),
    },
    {
      title: 'Business type',
      dataIndex: 'business_type',
      render: (b: Lead['business_type']) => (b ? <Tag>{BUSINESS_TYPE_LABELS[b]}</Tag> : '—'),
    },
    { title: 'Quote', dataIndex: 'quote_amount', align: 'right', render: (q: number | null) => (q === null ? '—' : formatGBP(q)) },
    { title: 'Source', dataIndex: 'source', render: (s: string | null) => s ?? '—' },
    { title: 'Created', dataIndex: 'created_at', render: (d: string) => formatDate(d) },
    {
      title: 'Actions',
      key: 'actions',
      fixed: 'right' as const,
      className: 'crm-table-actions',
      render: (_: unknown, l) => (
        <Flex gap={4}>
          <Tooltip title="Edit lead">
            <Button size="small" icon={<EditOutlined />} aria-label={`Edit ${l.name}`} onClick={() => onEdit(l)} />
          </Tooltip>
          {l.stage === 'won' && l.converted_client_id === null && (
            <Button size="small" type="primary" icon={<UserSwitchOutlined />} onClick={() => onConvert(l)}>
              Convert to client
            </Button>
          )}
          {l.converted_client_id !== null && <Tag color="green">Client</Tag>}
        </Flex>
      ),
    },
  ];
  return (
    <Table<Lead>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={leads}
      loading={loading}
      locale={{ emptyText }}
      scroll={{ x: 1000 }}
      tableLayout="auto"
      pagination={tablePagination({ page, pageSize, onPage }, total, [10, 20, 50, 100])}
    />
  );
}

import { formatCount } from '@countinghouse/proto';
import { useDebounced } from '../../shared/use-debounced';
import { DownloadOutlined, EyeOutlined, FileTextOutlined, HistoryOutlined, SearchOutlined } from '@ant-design/icons';
import {
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  formatDate,
  MESSAGES,
  type ClientDocument,
  type DocumentStatus,
  type DocumentType,
} from '@countinghouse/proto';
import { Button, Card, Col, Empty, Input, Row, Select, Space, Statistic, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useToast } from '../../shared/toast';
import { AccessLogDrawer } from './AccessLogDrawer';
import { useDocumentsListQuery, useDocumentsSummaryQuery, useDocumentViewLinkMutation, type DocumentsRealm } from './api';
import { formatBytes, STATUS_LABELS, typeLabel } from './labels';
import { StatusIcon } from './StatusIcon';
import { downloadDocument } from './transfer';
import './documents.css';

export interface ClientDocumentsViewProps {
  /** Only this client's documents (a client card, the client dashboard); all the caller may see otherwise. */
  clientId?: string;
  /** The session the calls run under: 'admin' in the admin panel, 'user' in the staff portal and client dashboard. */
  realm?: DocumentsRealm;
  /** Show each document's access history (administrators). */
  canSeeAccessLog?: boolean;
  /** Hide the company column when every row is the same client. */
  hideClientColumn?: boolean;
  /**
   * The client's own view (issue 33): their files with type, date and a plain status; no practice
   * figures, no Client column, file names in full (wrapping), no pinned actions column.
   */
  clientView?: boolean;
}

/** The spec's Client Documents view: search, type and status filters, summary cards, View and Download. */
export function ClientDocumentsView({
  clientId,
  realm = 'admin',
  canSeeAccessLog = false,
  hideClientColumn = false,
  clientView = false,
}: ClientDocumentsViewProps) {
  const withClient = !hideClientColumn && !clientView;
  const toast = useToast();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput.trim());
  const [type, setType] = useState<'all' | DocumentType>('all');
  const [status, setStatus] = useState<'all' | DocumentStatus>('all');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [historyOf, setHistoryOf] = useState<ClientDocument | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => setPage(1), [search, type, status, clientId]);

  const list = useDocumentsListQuery({ page, page_size: pageSize, search: search || undefined, type, status, client_id: clientId, realm });
  const summary = useDocumentsSummaryQuery({ clientId, realm });
  const [viewLink] = useDocumentViewLinkMutation();

  useEffect(() => {
    if (list.isError || summary.isError) toast.error(MESSAGES.failedToLoadDocuments, 'documents-load');
  }, [list.isError, summary.isError, toast]);

  async function view(doc: ClientDocument) {
    // Opened now, inside the click, so no pop-up blocker stops it; pointed at the signed link once it arrives.
    const tab = window.open('', '_blank');
    setBusy(`view-${doc.id}`);
    try {
      const link = await viewLink({ id: doc.id, realm }).unwrap();
      if (tab) {
        tab.opener = null;
        tab.location.href = link.url;
      } else {
        window.open(link.url, '_blank', 'noopener');
      }
    } catch {
      tab?.close();
      toast.error(MESSAGES.failedToViewDocument);
    } finally {
      setBusy(null);
    }
  }

  async function download(doc: ClientDocument) {
    setBusy(`download-${doc.id}`);
    try {
      await downloadDocument(doc.id, doc.filename, realm);
      toast.success(MESSAGES.documentDownloaded);
    } catch {
      toast.error(MESSAGES.failedToDownloadDocument);
    } finally {
      setBusy(null);
    }
  }

  const s = summary.data;
  return (
    <div className={`documents-view${clientView ? ' documents-view--client' : ''}`}>
      {!clientView && (
        <Row gutter={[16, 16]} className="documents-view__cards">
          {(
            [
              ['Total Documents', s?.total],
              ['Active', s?.active],
              ['Pending', s?.pending],
              ['Clients', s?.clients],
            ] as const
          ).map(([title, value]) => (
            <Col xs={12} md={6} key={title}>
              <Card size="small">
                <Statistic title={title} value={value ?? 0} loading={summary.isLoading} />
              </Card>
            </Col>
          ))}
        </Row>
      )}

      <Space wrap className="documents-view__filters">
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder="Search documents..."
          aria-label="Search documents"
          value={searchInput}
          onChange={(e) => setSearchInput(e.target.value)}
          style={{ width: 280 }}
        />
        {/* Short lists, so not virtual: every option stays in the page, which keyboards, screen readers
            and a list scrolled to the chosen type near its end all need. */}
        <Select
          aria-label="Document type"
          virtual={false}
          value={type}
          onChange={setType}
          style={{ width: 200 }}
          options={[{ value: 'all', label: 'All Types' }, ...DOCUMENT_TYPES.map((t) => ({ value: t.value, label: t.label }))]}
        />
        <Select
          aria-label="Status"
          virtual={false}
          value={status}
          onChange={setStatus}
          style={{ width: 160 }}
          options={[{ value: 'all', label: 'All Status' }, ...DOCUMENT_STATUSES.map((v) => ({ value: v, label: STATUS_LABELS[v] }))]}
        />
      </Space>

      <Table<ClientDocument>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        tableLayout="auto"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.documents ?? []}
        locale={{
          emptyText: <Empty description={search || type !== 'all' || status !== 'all' ? 'No documents match' : 'No documents yet'} />,
        }}
        pagination={{
          current: page,
          pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) =>
            list.data && !list.data.total_exact
              ? `${formatCount(total)}+ documents`
              : `${formatCount(total)} document${total === 1 ? '' : 's'}`,
          onChange: (p, size) => {
            setPage(size !== pageSize ? 1 : p);
            setPageSize(size);
          },
        }}
        columns={[
          {
            title: 'Document',
            key: 'file',
            render: (_v, d) => (
              <Space align="start">
                <FileTextOutlined className="documents-view__file-icon" />
                <div>
                  <Typography.Text strong className="documents-view__filename">
                    {d.filename}
                  </Typography.Text>
                  {d.description && (
                    <Typography.Paragraph type="secondary" className="documents-view__description" ellipsis={{ rows: 2 }}>
                      {d.description}
                    </Typography.Paragraph>
                  )}
                </div>
              </Space>
            ),
          },
          ...(!withClient
            ? []
            : [
                {
                  title: 'Client',
                  key: 'client',
                  render: (_v: unknown, d: ClientDocument) => (
                    <div>
                      <div>{d.company_name ?? '—'}</div>
                      <Typography.Text type="secondary">{d.contact_email ?? ''}</Typography.Text>
                    </div>
                  ),
                },
              ]),
          { title: 'Type', dataIndex: 'document_type', render: (v: string) => typeLabel(v) },
          ...(clientView ? [] : [{ title: 'Size', dataIndex: 'file_size', render: (v: number) => formatBytes(v) }]),
          { title: 'Uploaded', dataIndex: 'created_at', render: (v: string) => formatDate(v) },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (v: string) => (
              <Space size={4}>
                <StatusIcon status={v} />
                <span>{STATUS_LABELS[v as DocumentStatus] ?? v}</span>
              </Space>
            ),
          },
          {
            title: 'Actions',
            key: 'actions',
            ...(clientView ? {} : { fixed: 'right' as const }),
            render: (_v, d) => (
              <Space>
                <Button
                  size="small"
                  icon={<EyeOutlined />}
                  loading={busy === `view-${d.id}`}
                  onClick={() => void view(d)}
                  aria-label={`View ${d.filename}`}
                >
                  View
                </Button>
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  loading={busy === `download-${d.id}`}
                  onClick={() => void download(d)}
                  aria-label={`Download ${d.filename}`}
                >
                  Download
                </Button>
                {canSeeAccessLog && (
                  <Button
                    size="small"
                    type="text"
                    icon={<HistoryOutlined />}
                    onClick={() => setHistoryOf(d)}
                    aria-label={`Access history of ${d.filename}`}
                  />
                )}
              </Space>
            ),
          },
        ]}
      />
      {canSeeAccessLog && <AccessLogDrawer document={historyOf} realm={realm} onClose={() => setHistoryOf(null)} />}
    </div>
  );
}

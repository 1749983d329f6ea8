import { useEffect, useState } from 'react';
import { Button, Flex, Select, Tooltip, Typography } from 'antd';
import { CalendarOutlined, EditOutlined, FolderOpenOutlined, PlusOutlined } from '@ant-design/icons';
import { deadlineKindLabel, formatDate, MESSAGES, type Client, type NextDeadlinesReply } from '@countinghouse/proto';
import { useAmlStatusesQuery } from '../aml/api';
import { AmlStatusTag } from '../aml/AmlWorkspace';
import { useNextDeadlinesQuery } from '../workspace/api';
import { useClientQuery, useClientsQuery } from './api';
import { ClientDocumentsDialog, type DocumentsTarget } from './components/ClientDocumentsDialog';
import { ClientFormModal } from './components/ClientFormModal';
import { ClientDeadlinesDialog, type DeadlinesTarget } from '../deadlines/ClientDeadlinesDialog';
import {
  ClientLetterDialog,
  LetterStatusTag,
  letterStatusText,
  useLetterStatusOf,
  type LetterTarget,
} from '../engagement/ClientLetterDialog';
import { ClientTable } from './components/ClientTable';
import { OutstandingTag, useOutstandingClients } from '../aml/OutstandingBadge';
import {
  CLIENT_SEARCH_PLACEHOLDER,
  PackageFilterSelect,
  SearchBox,
  StatusFilter,
  unlessAll,
  type PackageFilterValue,
  type StatusFilterValue,
} from './components/ListToolbar';
import { usePaging } from './components/paging';
import { RECORDS_FILTER_OPTIONS, useRecordsOutstanding, type RecordsFilterValue } from './records-outstanding';
import { useDebounced } from '../../shared/use-debounced';
import { useErrorToast } from './use-error-toast';
import './crm.css';

interface Props {
  openId?: string | null;
  onOpened?: () => void;
}

/** /admin/clients: every client in a table with search, both filters, Add Client, edit and documents. */
export function ClientsWorkspace({ openId, onOpened }: Props) {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput.trim(), 300);
  const [status, setStatus] = useState<StatusFilterValue>('all');
  const [pkg, setPkg] = useState<PackageFilterValue>('all');
  // "Records outstanding" (issue #28): clients with an open request; the status and package filters wait meanwhile.
  const [records, setRecords] = useState<RecordsFilterValue>('all');
  const paging = usePaging();
  const { page, pageSize, andFirstPage } = paging;
  const [form, setForm] = useState<{ open: boolean; client: Client | null }>({ open: false, client: null });
  const [docsFor, setDocsFor] = useState<DocumentsTarget | null>(null);
  const [deadlinesFor, setDeadlinesFor] = useState<DeadlinesTarget | null>(null);
  const [letterFor, setLetterFor] = useState<LetterTarget | null>(null);
  const letterStatus = useLetterStatusOf();

  const clients = useClientsQuery(
    {
      search,
      status: unlessAll(status),
      package: unlessAll(pkg),
      sort: 'created_at',
      page,
      page_size: pageSize,
    },
    { skip: records === 'outstanding' },
  );
  const outstandingRecords = useRecordsOutstanding({ enabled: records === 'outstanding', search, page, pageSize });
  const rows = records === 'outstanding' ? outstandingRecords.list : clients;
  useErrorToast(rows.isError, MESSAGES.failedToLoadClientData);

  const opened = useClientQuery(openId ?? '', { skip: !openId });
  useEffect(() => {
    if (openId && opened.data) {
      setForm({ open: true, client: opened.data });
      onOpened?.();
    }
  }, [openId, opened.data, onOpened]);

  const pageIds = (rows.data?.clients ?? []).map((c) => c.id);
  const outstanding = useOutstandingClients(pageIds);
  const amlStatuses = useAmlStatusesQuery({ clientIds: pageIds }, { skip: pageIds.length === 0 });
  const amlStatus = new Map((amlStatuses.data?.statuses ?? []).map((st) => [st.client_id, st.status]));
  // Each listed client's next open deadline (an overdue one first), asked for this page's clients only.
  const deadlines = useNextDeadlinesQuery({ clientIds: pageIds }, { skip: pageIds.length === 0 });
  const nextDeadline = new Map<string, NextDeadlinesReply['next'][number]>((deadlines.data?.next ?? []).map((d) => [d.client_id, d]));

  const filtered = Boolean(search) || status !== 'all' || pkg !== 'all' || records !== 'all';

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} justify="space-between">
        <Flex wrap gap={8} role="search" aria-label="Filter clients" className="crm-toolbar">
          <SearchBox
            value={searchInput}
            onChange={andFirstPage(setSearchInput)}
            placeholder={CLIENT_SEARCH_PLACEHOLDER}
            label="Search clients"
          />
          {records === 'all' && (
            <>
              <StatusFilter value={status} onChange={andFirstPage(setStatus)} />
              <PackageFilterSelect value={pkg} onChange={andFirstPage(setPkg)} />
            </>
          )}
          <Select<RecordsFilterValue>
            value={records}
            onChange={andFirstPage((v: RecordsFilterValue) => {
              setRecords(v);
              if (v === 'outstanding') {
                setStatus('all');
                setPkg('all');
              }
            })}
            options={RECORDS_FILTER_OPTIONS}
            aria-label="Records filter"
            className="crm-toolbar__select"
            popupMatchSelectWidth={false}
          />
        </Flex>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true, client: null })}>
          Add Client
        </Button>
      </Flex>
      <ClientTable
        badges={(c) => (outstanding.has(c.id) ? <OutstandingTag /> : null)}
        recordPath={(c) => `/admin/clients/${encodeURIComponent(c.id)}`}
        list={rows}
        paging={paging}
        emptyText={filtered ? 'No clients match these filters' : 'No clients yet'}
        extraColumns={[
          { title: 'Accountant', key: 'accountant', render: (_: unknown, c) => c.assigned_accountant_name ?? 'Unassigned' },
          {
            title: 'Next deadline',
            key: 'next',
            render: (_: unknown, c) => {
              const d = nextDeadline.get(c.id);
              if (!d) return '—';
              return (
                <Typography.Text type={d.overdue ? 'danger' : undefined}>
                  {formatDate(d.due_on)} <span className="crm-next-deadline__kind">{deadlineKindLabel(d.kind)}</span>
                  {d.overdue_count > 1 && <span className="crm-next-deadline__more"> ({d.overdue_count} overdue)</span>}
                </Typography.Text>
              );
            },
          },
          {
            title: 'Letter',
            key: 'letter',
            render: (_: unknown, c) => (
              <Button
                size="small"
                type="text"
                onClick={() => setLetterFor(c)}
                // the visible text first, as a screen reader user hears it (WCAG 2.5.3 label in name)
                aria-label={`Letter ${letterStatusText(letterStatus(c.id).status, letterStatus(c.id).signed_at)}: engagement letter for ${c.company_name}`}
              >
                <LetterStatusTag status={letterStatus(c.id).status} signedAt={letterStatus(c.id).signed_at} />
              </Button>
            ),
          },
          {
            title: 'AML',
            key: 'aml',
            render: (_: unknown, c) => {
              const st = amlStatus.get(c.id);
              return st ? <AmlStatusTag status={st} /> : '—';
            },
          },
        ]}
        actions={(c) => (
          <Flex gap={4}>
            <Tooltip title="Documents">
              <Button
                size="small"
                icon={<FolderOpenOutlined />}
                onClick={() => setDocsFor(c)}
                aria-label={`Documents for ${c.company_name}`}
              />
            </Tooltip>
            <Tooltip title="Deadlines">
              <Button
                size="small"
                icon={<CalendarOutlined />}
                onClick={() => setDeadlinesFor(c)}
                aria-label={`Deadlines for ${c.company_name}`}
              />
            </Tooltip>
            <Tooltip title="Edit client">
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={`Edit ${c.company_name}`}
                onClick={() => setForm({ open: true, client: c })}
              />
            </Tooltip>
          </Flex>
        )}
      />
      {form.open && <ClientFormModal open client={form.client} onClose={() => setForm({ open: false, client: null })} />}
      {docsFor && <ClientDocumentsDialog client={docsFor} onClose={() => setDocsFor(null)} />}
      {deadlinesFor && <ClientDeadlinesDialog client={deadlinesFor} onClose={() => setDeadlinesFor(null)} />}
      {letterFor && <ClientLetterDialog client={letterFor} onClose={() => setLetterFor(null)} />}
    </Flex>
  );
}

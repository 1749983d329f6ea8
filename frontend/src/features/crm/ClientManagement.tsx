import { Children, isValidElement, useState, type ReactNode } from 'react';
import { Button, Col, Empty, Flex, Pagination, Row, Spin, Tabs, Typography } from 'antd';
import { PlusOutlined, UserAddOutlined } from '@ant-design/icons';
import { MESSAGES, MONTHLY_REVENUE_LABEL, type Client, type Lead } from '@countinghouse/proto';
import { useClientsQuery, useCrmStatsQuery, useLeadsQuery, useMonthlyRevenueQuery } from './api';
import { revenueValue } from './ControlPanelStats';
import { ClientCard } from './components/ClientCard';
import { ClientDocumentsDialog, type DocumentsTarget } from './components/ClientDocumentsDialog';
import { ClientFormModal } from './components/ClientFormModal';
import { ConvertLeadModal } from './components/ConvertLeadModal';
import { GhlImportButton } from './components/GhlImportButton';
import { LeadCard } from './components/LeadCard';
import { LeadFormModal } from './components/LeadFormModal';
import {
  CLIENT_SEARCH_PLACEHOLDER,
  PackageFilterSelect,
  SearchBox,
  StatusFilter,
  unlessAll,
  type PackageFilterValue,
  type StatusFilterValue,
} from './components/ListToolbar';
import { showRange } from './components/paging';
import { StatCards } from './components/StatCards';
import { formatCount } from '@countinghouse/proto';
import { useDebounced } from '../../shared/use-debounced';
import { useErrorToast } from './use-error-toast';
import { useLeadStageChange } from './use-lead-stage';
import './crm.css';

const CARD_PAGE_SIZE = 12;

type TabKey = 'clients' | 'leads';

/**
 * The Client Management view (the control panel's Client Database tab): summary cards, one search
 * for clients and leads, the client filters, and a tab of cards for each, paged by the server.
 */
export function ClientManagement() {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput.trim(), 300);
  const [status, setStatus] = useState<StatusFilterValue>('all');
  const [pkg, setPkg] = useState<PackageFilterValue>('all');
  const [tab, setTab] = useState<TabKey>('clients');
  const [clientPage, setClientPage] = useState(1);
  const [leadPage, setLeadPage] = useState(1);

  const [clientForm, setClientForm] = useState<{ open: boolean; client: Client | null }>({ open: false, client: null });
  const [leadForm, setLeadForm] = useState<{ open: boolean; lead: Lead | null }>({ open: false, lead: null });
  const [docsFor, setDocsFor] = useState<DocumentsTarget | null>(null);
  const [converting, setConverting] = useState<Lead | null>(null);

  const stats = useCrmStatsQuery();
  const revenue = useMonthlyRevenueQuery();
  const clients = useClientsQuery({
    search,
    status: unlessAll(status),
    package: unlessAll(pkg),
    sort: 'created_at',
    page: clientPage,
    page_size: CARD_PAGE_SIZE,
  });
  const leads = useLeadsQuery({ search, page: leadPage, page_size: CARD_PAGE_SIZE });
  const { savingStageOf, changeStage } = useLeadStageChange();

  useErrorToast(clients.isError || stats.isError, MESSAGES.failedToLoadClientData);
  useErrorToast(leads.isError, MESSAGES.failedToFetchLeads);

  const onSearch = (value: string) => {
    setSearchInput(value);
    setClientPage(1);
    setLeadPage(1);
  };

  const s = stats.isError ? null : stats.data;
  const filtered = Boolean(search) || status !== 'all' || pkg !== 'all';
  const clientTotal = clients.data?.total;
  const leadTotal = leads.data?.total;

  const clientsPanel = (
    <CardGrid
      loading={clients.isLoading}
      fetching={clients.isFetching}
      isError={clients.isError}
      onRetry={() => void clients.refetch()}
      empty={filtered ? 'No clients match these filters' : 'No clients yet'}
      total={clientTotal ?? 0}
      page={clientPage}
      onPage={setClientPage}
      label="Clients"
    >
      {clients.data?.clients.map((client) => (
        <ClientCard key={client.id} client={client} onDocs={setDocsFor} onEdit={(c) => setClientForm({ open: true, client: c })} />
      ))}
    </CardGrid>
  );
  const leadsPanel = (
    <CardGrid
      loading={leads.isLoading}
      fetching={leads.isFetching}
      isError={leads.isError}
      onRetry={() => void leads.refetch()}
      empty={search ? 'No leads match this search' : 'No leads yet'}
      total={leadTotal ?? 0}
      page={leadPage}
      onPage={setLeadPage}
      label="Leads"
    >
      {leads.data?.leads.map((lead) => (
        <LeadCard
          key={lead.id}
          lead={lead}
          isSaving={savingStageOf === lead.id}
          onStageChange={changeStage}
          onEdit={(l) => setLeadForm({ open: true, lead: l })}
          onConvert={setConverting}
        />
      ))}
    </CardGrid>
  );

  return (
    <Flex vertical gap={20} className="crm-management">
      <Flex wrap justify="space-between" align="center" gap={12}>
        <Typography.Title level={2} className="crm-heading">
          Client Management
        </Typography.Title>
        <Flex wrap gap={8}>
          <GhlImportButton />
          <Button icon={<UserAddOutlined />} onClick={() => setLeadForm({ open: true, lead: null })}>
            Add Lead
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setClientForm({ open: true, client: null })}>
            Add Client
          </Button>
        </Flex>
      </Flex>

      <StatCards
        items={[
          { title: 'Total Clients', value: s === undefined ? undefined : s && formatCount(s.total_clients) },
          { title: 'Active Clients', value: s === undefined ? undefined : s && formatCount(s.active_clients) },
          { title: 'New Leads', value: s === undefined ? undefined : s && formatCount(s.new_leads) },
          { title: MONTHLY_REVENUE_LABEL, value: revenueValue(revenue) },
        ]}
      />

      <Flex wrap gap={8} className="crm-toolbar" role="search" aria-label="Filter clients and leads">
        <SearchBox value={searchInput} onChange={onSearch} placeholder={CLIENT_SEARCH_PLACEHOLDER} label="Search clients and leads" />
        <StatusFilter
          value={status}
          onChange={(v) => {
            setStatus(v);
            setClientPage(1);
          }}
        />
        <PackageFilterSelect
          value={pkg}
          onChange={(v) => {
            setPkg(v);
            setClientPage(1);
          }}
        />
      </Flex>

      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as TabKey)}
        items={[
          { key: 'clients', label: `Clients (${clientTotal === undefined ? '…' : formatCount(clientTotal)})`, children: clientsPanel },
          { key: 'leads', label: `Leads (${leadTotal === undefined ? '…' : formatCount(leadTotal)})`, children: leadsPanel },
        ]}
      />

      {clientForm.open && <ClientFormModal open client={clientForm.client} onClose={() => setClientForm({ open: false, client: null })} />}
      {leadForm.open && <LeadFormModal open lead={leadForm.lead} onClose={() => setLeadForm({ open: false, lead: null })} />}
      {converting && <ConvertLeadModal lead={converting} onClose={() => setConverting(null)} />}
      {docsFor && <ClientDocumentsDialog client={docsFor} onClose={() => setDocsFor(null)} />}
    </Flex>
  );
}

interface GridProps {
  loading: boolean;
  fetching: boolean;
  isError: boolean;
  onRetry: () => void;
  empty: string;
  total: number;
  page: number;
  onPage: (page: number) => void;
  label: string;
  children: ReactNode;
}

function CardGrid({ loading, fetching, isError, onRetry, empty, total, page, onPage, label, children }: GridProps) {
  if (loading) return <Spin size="large" className="crm-grid__spinner" description="Loading…" />;
  if (isError && total === 0) {
    return (
      <Empty description="Could not load this list">
        <Button onClick={onRetry}>Try again</Button>
      </Empty>
    );
  }
  if (total === 0) return <Empty description={empty} />;
  const cards = Children.toArray(children).filter(isValidElement);
  return (
    <Spin spinning={fetching}>
      <Row gutter={[16, 16]} role="list" aria-label={label}>
        {cards.map((card) => (
          <Col key={card.key} xs={24} md={12} xxl={8} role="listitem">
            {card}
          </Col>
        ))}
      </Row>
      {total > CARD_PAGE_SIZE && (
        <Pagination
          className="crm-pagination"
          current={page}
          pageSize={CARD_PAGE_SIZE}
          total={total}
          onChange={onPage}
          showSizeChanger={false}
          showTotal={showRange}
        />
      )}
    </Spin>
  );
}

import { useEffect, useState } from 'react';
import { Button, Flex, Select } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { MESSAGES, type Lead, type LeadStage } from '@countinghouse/proto';
import { useLeadQuery, useLeadsQuery } from './api';
import { ConvertLeadModal } from './components/ConvertLeadModal';
import { GhlImportButton } from './components/GhlImportButton';
import { LeadFormModal } from './components/LeadFormModal';
import { LeadTable } from './components/LeadTable';
import { SearchBox, unlessAll } from './components/ListToolbar';
import { usePaging } from './components/paging';
import { STAGE_OPTIONS } from './labels';
import { useDebounced } from '../../shared/use-debounced';
import { useErrorToast } from './use-error-toast';
import { CrmRealmProvider, useCrmRealm } from './realm';
import { useLeadStageChange } from './use-lead-stage';
import './crm.css';

const STAGE_FILTER_OPTIONS = [{ value: 'all', label: 'All Stages' }, ...STAGE_OPTIONS];

interface Props {
  /** Open this lead's form at once (header search: /admin/leads?open=<id>). */
  openId?: string | null;
  onOpened?: () => void;
}

/** Leads with search, a stage filter, the GoHighLevel import, Add Lead, edit, stage change and convert. */
export function LeadsWorkspace({ openId, onOpened }: Props) {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput.trim(), 300);
  const [stage, setStage] = useState<'all' | LeadStage>('all');
  const paging = usePaging();
  const { page, pageSize, andFirstPage } = paging;
  const [form, setForm] = useState<{ open: boolean; lead: Lead | null }>({ open: false, lead: null });
  const [converting, setConverting] = useState<Lead | null>(null);
  const { savingStageOf, changeStage } = useLeadStageChange();

  const realm = useCrmRealm();
  const leads = useLeadsQuery({ search, stage: unlessAll(stage), page, page_size: pageSize, realm });
  useErrorToast(leads.isError, MESSAGES.failedToFetchLeads);

  const opened = useLeadQuery(openId ?? '', { skip: !openId });
  useEffect(() => {
    if (openId && opened.data) {
      setForm({ open: true, lead: opened.data });
      onOpened?.();
    }
  }, [openId, opened.data, onOpened]);

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} justify="space-between">
        <Flex wrap gap={8} role="search" aria-label="Filter leads" className="crm-toolbar">
          <SearchBox
            value={searchInput}
            onChange={andFirstPage(setSearchInput)}
            placeholder="Search leads by name, email or company..."
            label="Search leads"
          />
          <Select
            value={stage}
            onChange={andFirstPage(setStage)}
            options={STAGE_FILTER_OPTIONS}
            aria-label="Stage filter"
            className="crm-toolbar__select"
            popupMatchSelectWidth={false}
          />
        </Flex>
        <Flex wrap gap={8}>
          <GhlImportButton />
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setForm({ open: true, lead: null })}>
            Add Lead
          </Button>
        </Flex>
      </Flex>
      <LeadTable
        leads={leads.data?.leads}
        total={leads.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPage={paging.onPage}
        loading={leads.isFetching}
        emptyText={leads.isError ? 'Could not load leads' : search || stage !== 'all' ? 'No leads match these filters' : 'No leads yet'}
        savingStageOf={savingStageOf}
        onStageChange={changeStage}
        onEdit={(l) => setForm({ open: true, lead: l })}
        onConvert={setConverting}
      />
      {form.open && <LeadFormModal open lead={form.lead} onClose={() => setForm({ open: false, lead: null })} />}
      {converting && <ConvertLeadModal lead={converting} onClose={() => setConverting(null)} />}
    </Flex>
  );
}

/** The staff portal's Leads tab. */
export function StaffLeads() {
  return (
    <CrmRealmProvider realm="user">
      <LeadsWorkspace />
    </CrmRealmProvider>
  );
}

import { useState } from 'react';
import { Button, Flex } from 'antd';
import { FolderOpenOutlined } from '@ant-design/icons';
import { hasPermission, MESSAGES } from '@countinghouse/proto';
import { useMeQuery } from '../auth/api';
import { OutstandingTag, useOutstandingClients } from '../aml/OutstandingBadge';
import { useClientsQuery } from './api';
import { ClientDocumentsDialog, type DocumentsTarget } from './components/ClientDocumentsDialog';
import { ClientTable } from './components/ClientTable';
import { CLIENT_SEARCH_PLACEHOLDER, SearchBox } from './components/ListToolbar';
import { usePaging } from './components/paging';
import { useDebounced } from '../../shared/use-debounced';
import { useErrorToast } from './use-error-toast';
import './crm.css';

/** The staff portal's Client Database tab: newest first by registration date, paged by the server. */
export function StaffClientDatabase() {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput.trim(), 300);
  const paging = usePaging();
  const { page, pageSize, andFirstPage } = paging;
  const [docsFor, setDocsFor] = useState<DocumentsTarget | null>(null);
  const clients = useClientsQuery({ search, sort: 'registration_date', page, page_size: pageSize, realm: 'user' });
  useErrorToast(clients.isError, MESSAGES.failedToLoadClientData);
  // "Due diligence outstanding" for those who may see AML status (aml.view: managers, the MLRO, accountants).
  const me = useMeQuery();
  const outstanding = useOutstandingClients(
    (clients.data?.clients ?? []).map((c) => c.id),
    'user',
    hasPermission(me.data?.roles ?? [], 'aml.view'),
  );

  return (
    <Flex vertical gap={12}>
      {/* In a row: in the column, the search box's flex-basis would become its height. */}
      <Flex className="crm-toolbar">
        <SearchBox
          value={searchInput}
          onChange={andFirstPage(setSearchInput)}
          placeholder={CLIENT_SEARCH_PLACEHOLDER}
          label="Search clients"
        />
      </Flex>
      <ClientTable
        badges={(c) => (outstanding.has(c.id) ? <OutstandingTag /> : null)}
        recordPath={(c) => `/work/clients/${encodeURIComponent(c.id)}`}
        list={clients}
        paging={paging}
        emptyText={search ? 'No clients match this search' : 'No clients yet'}
        actions={(c) => (
          <Button size="small" icon={<FolderOpenOutlined />} onClick={() => setDocsFor(c)} aria-label={`Documents for ${c.company_name}`}>
            Documents
          </Button>
        )}
      />
      {docsFor && <ClientDocumentsDialog client={docsFor} onClose={() => setDocsFor(null)} variant="staff" />}
    </Flex>
  );
}

import './crm.css';
import { useState } from 'react';
import { AutoComplete, Input, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { formatDate, type SearchResult } from '@countinghouse/proto';
import { useCrmSearchQuery } from './api';
import { STAGE_LABELS, STATUS_LABELS, TASK_STATUS_LABELS } from './labels';
import { useDebounced } from '../../shared/use-debounced';

const HEADER_SEARCH_PLACEHOLDER = 'Search clients, leads, tasks...';
/** Fewer characters match too much to be useful. */
const HEADER_SEARCH_MIN = 2;

function Option({ primary, secondary }: { primary: string; secondary: string }) {
  return (
    <div className="crm-search-option">
      <div>{primary}</div>
      <Typography.Text type="secondary" className="crm-search-option__secondary">
        {secondary}
      </Typography.Text>
    </div>
  );
}

/** value = '<kind>:<id>', so onSelect knows where to go. */
function toGroups(result: SearchResult | undefined) {
  if (!result) return [];
  const groups = [
    {
      label: 'Clients',
      options: result.clients.map((c) => ({
        value: `clients:${c.id}`,
        label: <Option primary={c.company_name} secondary={`${c.contact_email} · ${STATUS_LABELS[c.subscription_status]}`} />,
      })),
    },
    {
      label: 'Leads',
      options: result.leads.map((l) => ({
        value: `leads:${l.id}`,
        label: <Option primary={l.name} secondary={[l.company_name, l.email, STAGE_LABELS[l.stage]].filter(Boolean).join(' · ')} />,
      })),
    },
    {
      label: 'Tasks',
      options: result.tasks.map((t) => ({
        value: `tasks:${t.id}`,
        label: (
          <Option
            primary={t.title}
            secondary={[t.client_company_name, TASK_STATUS_LABELS[t.status], t.due_date ? `due ${formatDate(t.due_date)}` : null]
              .filter(Boolean)
              .join(' · ')}
          />
        ),
      })),
    },
  ];
  return groups.filter((g) => g.options.length > 0);
}

/** The admin header's search: clients, leads and tasks in groups; choosing one opens its record. */
export function HeaderSearch() {
  const [input, setInput] = useState('');
  const q = useDebounced(input.trim(), 250);
  const enabled = q.length >= HEADER_SEARCH_MIN;
  const search = useCrmSearchQuery(q, { skip: !enabled });
  const navigate = useNavigate();
  const options = enabled ? toGroups(search.currentData) : [];

  const notFound = !enabled
    ? null
    : search.isFetching && !search.currentData
      ? 'Searching…'
      : search.isError
        ? 'Search is unavailable right now'
        : 'No clients, leads or tasks match';

  return (
    <AutoComplete
      value={input}
      options={options}
      onSearch={setInput}
      onChange={(v: string) => setInput(v)}
      onSelect={(value: string) => {
        const [kind, id = ''] = value.split(':');
        setInput('');
        // A client opens its record (issue 26), not the edit form; leads and tasks open in their lists.
        if (kind === 'clients') navigate(`/admin/clients/${encodeURIComponent(id)}`);
        else navigate(`/admin/${kind}?open=${encodeURIComponent(id)}`);
      }}
      notFoundContent={notFound}
      popupMatchSelectWidth={420}
      className="admin-layout__search-box"
      style={{ width: '100%' }}
    >
      <Input
        type="search"
        aria-label="Search"
        placeholder={HEADER_SEARCH_PLACEHOLDER}
        prefix={<SearchOutlined aria-hidden="true" />}
        allowClear
      />
    </AutoComplete>
  );
}

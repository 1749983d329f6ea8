import type { ReactNode } from 'react';
import { Table, Typography, type TableColumnsType } from 'antd';
import { Link } from 'react-router-dom';
import { formatDate, formatGBP, type Client } from '@countinghouse/proto';
import { tablePagination, type Paging } from './paging';
import { ClientStatusBadge } from './StatusBadge';

interface Props {
  /** The clients query: while it fails the table says 'Could not load clients'. */
  list: { data?: { clients: Client[]; total: number }; isFetching: boolean; isError: boolean };
  paging: Paging;
  actions: (client: Client) => ReactNode;
  /** What an empty list says when it loaded. */
  emptyText: string;
  caption?: string;
  /** Tags after the company name (the AML file's "Due diligence outstanding"). */
  badges?: (client: Client) => ReactNode;
  /** Where the client's record is: the name becomes a link to it (issue 26). */
  recordPath?: (client: Client) => string;
  /** More columns, before Actions (the admin list's accountant, next deadline, letter and AML). */
  extraColumns?: TableColumnsType<Client>;
}

/** Clients as a table: Company, Contact, Package, Monthly Fee, Status, Registered, Actions (spec: staff portal). */
export function ClientTable({ list, paging, actions, emptyText, caption, badges, recordPath, extraColumns = [] }: Props) {
  const columns: TableColumnsType<Client> = [
    {
      title: 'Company',
      dataIndex: 'company_name',
      // The tags under the name, not beside it: beside it, "Due diligence outstanding" widened the column
      // by its own width and the staff portal's table overflowed its card at 1280 px (Actions cut off).
      render: (name: string, c) => {
        const tags = badges?.(c);
        return (
          <div className="crm-client-cell">
            {recordPath ? (
              <Link to={recordPath(c)} className="crm-client-link">
                <Typography.Text strong>{name}</Typography.Text>
              </Link>
            ) : (
              <Typography.Text strong>{name}</Typography.Text>
            )}
            {tags && <div className="crm-client-cell__tags">{tags}</div>}
          </div>
        );
      },
    },
    {
      title: 'Contact',
      key: 'contact',
      render: (_: unknown, c) => (
        <div>
          {c.contact_name && <div>{c.contact_name}</div>}
          <Typography.Text type="secondary">{c.contact_email}</Typography.Text>
        </div>
      ),
    },
    { title: 'Package', dataIndex: 'package_name', render: (p: string | null) => p ?? '—' },
    { title: 'Monthly Fee', dataIndex: 'monthly_fee', align: 'right', render: (fee: number) => formatGBP(fee) },
    { title: 'Status', dataIndex: 'subscription_status', render: (_: unknown, c) => <ClientStatusBadge status={c.subscription_status} /> },
    { title: 'Registered', dataIndex: 'registration_date', render: (d: string) => formatDate(d) },
    ...extraColumns,
    // Not pinned: at 1280 px a pinned column covered the ones before it (issue 26).
    { title: 'Actions', key: 'actions', className: 'crm-table-actions', render: (_: unknown, c) => actions(c) },
  ];
  return (
    <Table<Client>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={list.data?.clients}
      loading={list.isFetching}
      locale={{ emptyText: list.isError ? 'Could not load clients' : emptyText }}
      scroll={{ x: 'max-content' }}
      tableLayout="auto"
      caption={caption}
      pagination={tablePagination(paging, list.data?.total ?? 0, [10, 20, 50, 100])}
    />
  );
}

import { formatDate, formatGBP, type Invoice } from '@countinghouse/proto';
import { Button, Card, Empty, Table, Typography } from 'antd';
import { serverText, useToast } from '../../shared/toast';
import { downloadInvoice, useAdminInvoicesQuery, useMyInvoicesQuery } from './api';

function DownloadButton({ invoice, realm }: { invoice: Invoice; realm: 'admin' | 'user' }) {
  const toast = useToast();
  return (
    <Button
      size="small"
      aria-label={`PDF of ${invoice.number}`}
      onClick={() => void downloadInvoice(invoice.id, invoice.number, realm).catch((e: Error) => toast.error(serverText(e.message)))}
    >
      PDF
    </Button>
  );
}

const amount = (i: Invoice, v: number) => (i.kind === 'credit_note' ? `-${formatGBP(v)}` : formatGBP(v));

/** Issue 33: the client's VAT invoices (one for every payment), each as a PDF. */
export function InvoicesCard() {
  const q = useMyInvoicesQuery();
  const list = q.data?.invoices ?? [];
  return (
    <Card title="Your invoices" className="client-gap">
      {q.isError ? (
        <Typography.Text type="danger">Your invoices could not be loaded.</Typography.Text>
      ) : q.isLoading ? (
        <Typography.Text>Loading your invoices…</Typography.Text>
      ) : list.length === 0 ? (
        <Empty description="No invoices yet: one is made for every payment." />
      ) : (
        <ul className="client-invoices">
          {list.map((i) => (
            <li key={i.id}>
              <span>
                <strong>{i.number}</strong> {formatDate(i.issued_at)}: {i.description}.{' '}
                {i.vat > 0 ? `${amount(i, i.net)} + ${amount(i, i.vat)} VAT = ${amount(i, i.gross)}` : amount(i, i.gross)}
                {i.vat_number && <span className="client-invoices__vat"> (VAT no. {i.vat_number})</span>}
              </span>{' '}
              <DownloadButton invoice={i} realm="user" />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** Issue 33: every VAT invoice and credit note, for the practice (/admin/billing). */
export function AdminInvoicesCard() {
  const q = useAdminInvoicesQuery();
  return (
    <Card title="VAT invoices" className="client-gap">
      <Table<Invoice>
        size="small"
        rowKey="id"
        loading={q.isLoading}
        dataSource={q.data?.invoices ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: q.isError ? 'The invoices could not be loaded.' : 'No invoices yet' }}
        columns={[
          { title: 'Number', dataIndex: 'number' },
          { title: 'Date', dataIndex: 'issued_at', render: (v: string) => formatDate(v) },
          { title: 'Client', dataIndex: 'client_name' },
          { title: 'Net', key: 'net', align: 'right', render: (_v, i) => amount(i, i.net) },
          { title: 'VAT', key: 'vat', align: 'right', render: (_v, i) => amount(i, i.vat) },
          { title: 'Total', key: 'gross', align: 'right', render: (_v, i) => amount(i, i.gross) },
          { title: 'PDF', key: 'pdf', render: (_v, i) => <DownloadButton invoice={i} realm="admin" /> },
        ]}
      />
    </Card>
  );
}

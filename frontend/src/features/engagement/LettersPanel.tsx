import { formatDate, type LetterStatuses } from '@countinghouse/proto';
import { Alert, Button, Table } from 'antd';
import { useState } from 'react';
import { useLetterStatusesQuery } from './api';
import { ClientLetterDialog, LetterStatusTag, type LetterTarget } from './ClientLetterDialog';

type Row = LetterStatuses['statuses'][number];

/** The staff portal's "Engagement letters" tab: every visible client's letter status, the versions and PDFs. */
export function EngagementLettersPanel({ realm = 'user', canSend = true }: { realm?: 'admin' | 'user'; canSend?: boolean }) {
  const q = useLetterStatusesQuery({ realm });
  const [open, setOpen] = useState<LetterTarget | null>(null);
  if (q.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="The engagement letters could not be loaded."
        action={
          <Button size="small" onClick={() => void q.refetch()}>
            Try again
          </Button>
        }
      />
    );
  return (
    <>
      <Table<Row>
        rowKey="client_id"
        scroll={{ x: 'max-content' }}
        tableLayout="auto"
        size="small"
        loading={q.isLoading}
        dataSource={[...(q.data?.statuses ?? [])].sort((a, b) => a.client_name.localeCompare(b.client_name, 'en-GB'))}
        locale={{ emptyText: 'No engagement letters sent yet' }}
        columns={[
          { title: 'Client', dataIndex: 'client_name', key: 'client' },
          { title: 'Status', key: 'status', render: (_: unknown, r) => <LetterStatusTag status={r.status} signedAt={r.signed_at} /> },
          { title: 'Version', dataIndex: 'version', key: 'version' },
          { title: 'Signed', key: 'signed', render: (_: unknown, r) => formatDate(r.signed_at) || '—' },
          {
            title: 'Letters',
            key: 'open',
            fixed: 'right' as const,
            render: (_: unknown, r) => (
              <Button
                size="small"
                onClick={() => setOpen({ id: r.client_id, company_name: r.client_name })}
                aria-label={`Open letters of ${r.client_name}`}
              >
                Open
              </Button>
            ),
          },
        ]}
      />
      {open && <ClientLetterDialog client={open} realm={realm} canSend={canSend} onClose={() => setOpen(null)} />}
    </>
  );
}

export default EngagementLettersPanel;

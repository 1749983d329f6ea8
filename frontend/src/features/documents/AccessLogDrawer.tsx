import { formatDateTime, type ClientDocument } from '@countinghouse/proto';
import { Alert, Drawer, Table, Tag } from 'antd';
import { useDocumentAccessLogQuery, type DocumentsRealm } from './api';

const ACTION_COLOURS = { view: 'blue', download: 'green', upload: 'purple' } as const;

/** A document's access history (administrators only): who viewed, downloaded or uploaded it, when and from where. */
export function AccessLogDrawer({
  document,
  realm,
  onClose,
}: {
  document: ClientDocument | null;
  realm: DocumentsRealm;
  onClose: () => void;
}) {
  const { data, isFetching, isError } = useDocumentAccessLogQuery(
    { id: document?.id ?? '', realm },
    { skip: !document, refetchOnMountOrArgChange: true },
  );
  return (
    <Drawer open={document !== null} onClose={onClose} title={`Access history — ${document?.filename ?? ''}`} size="large" destroyOnHidden>
      {isError && <Alert type="error" showIcon title="Could not load the access history" />}
      <Table
        rowKey="id"
        size="small"
        loading={isFetching}
        pagination={false}
        dataSource={data?.entries ?? []}
        columns={[
          { title: 'When', dataIndex: 'at', render: (v: string) => formatDateTime(v) },
          {
            title: 'Action',
            dataIndex: 'action',
            render: (a: keyof typeof ACTION_COLOURS) => <Tag color={ACTION_COLOURS[a]}>{a}</Tag>,
          },
          {
            title: 'Who',
            key: 'who',
            render: (_v, e) => `${e.principal_name} (${e.principal_kind === 'admin' ? 'admin panel' : 'person'})`,
          },
          { title: 'Address', dataIndex: 'ip', render: (v: string | null) => v ?? '—' },
          { title: 'Browser', dataIndex: 'user_agent', ellipsis: true, render: (v: string | null) => v ?? '—' },
        ]}
      />
    </Drawer>
  );
}

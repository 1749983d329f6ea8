import { Card, Typography } from 'antd';
import { ClientDocumentsView } from './ClientDocumentsView';
import { DocumentUploader } from './DocumentUploader';

/** /admin/documents and the admin panel's Client Files tab: upload for any client, then every document. */
export function AdminDocumentsPage() {
  return (
    <div className="documents-page">
      <Typography.Title level={3}>Client Documents</Typography.Title>
      <Card title="Upload documents" size="small" style={{ marginBottom: 16 }}>
        <DocumentUploader pickClient realm="admin" />
      </Card>
      <ClientDocumentsView realm="admin" canSeeAccessLog />
    </div>
  );
}

export default AdminDocumentsPage;

import { Card } from 'antd';
import { ClientDocumentsView } from './ClientDocumentsView';
import { DocumentUploader } from './DocumentUploader';
import { PageHeader } from '../../shared/PageHeader';

/** /admin/documents and the admin panel's Client Files tab: upload for any client, then every document. */
export function AdminDocumentsPage() {
  return (
    <div className="documents-page">
      <PageHeader title="Client Documents" />
      <Card title="Upload documents" size="small" style={{ marginBottom: 16 }}>
        <DocumentUploader pickClient realm="admin" />
      </Card>
      <ClientDocumentsView realm="admin" canSeeAccessLog />
    </div>
  );
}

export default AdminDocumentsPage;

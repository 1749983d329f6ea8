// The documents area's public pieces, for the admin panel, the staff portal, the client card dialogs
// and the client dashboard.
export { ClientDocumentsView, type ClientDocumentsViewProps } from './ClientDocumentsView';
export { DocumentUploader, type DocumentUploaderProps } from './DocumentUploader';
export { AdminDocumentsPage } from './DocumentsPage';
export { AccessLogDrawer } from './AccessLogDrawer';
export { ACCESS_NOTE } from './labels';
export type { DocumentsRealm } from './api';

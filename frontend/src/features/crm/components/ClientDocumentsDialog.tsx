import { Alert, Modal, Typography } from 'antd';

export interface DocumentsTarget {
  id: string;
  company_name: string;
}

interface Props {
  client: DocumentsTarget | null;
  onClose: () => void;
  /**
   * 'admin': the Client Management card's dialog, 'Client Documents — {company}'.
   * 'staff': the staff portal's dialog, 'Client Documents' with the company name under it.
   */
  variant?: 'admin' | 'staff';
}

export const ACCESS_NOTE = 'Only the client and their assigned accountant can access these files.';

/** The Docs dialog: the documents area's uploader for one client. */
export function ClientDocumentsDialog({ client, onClose, variant = 'admin' }: Props) {
  const title = variant === 'admin' && client ? `Client Documents — ${client.company_name}` : 'Client Documents';
  return (
    <Modal open={client !== null} title={title} onCancel={onClose} footer={null} destroyOnHidden width={640}>
      {client && (
        <>
          {variant === 'staff' && (
            <Typography.Paragraph strong className="crm-docs__company">
              {client.company_name}
            </Typography.Paragraph>
          )}
          <Typography.Paragraph type="secondary">{ACCESS_NOTE}</Typography.Paragraph>
          <Alert
            type="info"
            showIcon
            title="Document upload is not built yet"
            description="Uploading client documents arrives with the documents area; nothing can be uploaded from here yet."
          />
        </>
      )}
    </Modal>
  );
}

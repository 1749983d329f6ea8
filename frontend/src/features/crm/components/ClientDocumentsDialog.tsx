import { Modal, Typography } from 'antd';
import { MESSAGES } from '@countinghouse/proto';
import { DocumentUploader } from '../../documents';
import { useToast } from '../../../shared/toast';

export interface DocumentsTarget {
  id: string;
  company_name: string;
}

interface Props {
  client: DocumentsTarget | null;
  onClose: () => void;
  /**
   * 'admin': the Client Management card's dialog, 'Client Documents — {company}'.
   * 'staff': the staff portal's dialog, 'Client Documents' with the company name under it, calls
   * made under the person's session.
   */
  variant?: 'admin' | 'staff';
}

/** The Docs dialog: the documents area's uploader for one client; 'Files uploaded' and close when done. */
export function ClientDocumentsDialog({ client, onClose, variant = 'admin' }: Props) {
  const toast = useToast();
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
          {/* The uploader states who can access the files (the spec's upload text). */}
          <DocumentUploader
            clientId={client.id}
            realm={variant === 'staff' ? 'user' : 'admin'}
            onUploaded={() => {
              toast.success(MESSAGES.filesUploaded, 'files-uploaded');
              onClose();
            }}
          />
        </>
      )}
    </Modal>
  );
}

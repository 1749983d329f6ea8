import {
  formatDate,
  formatDateTime,
  LETTER_REASON_LABELS,
  LETTER_STATUS_LABELS,
  type LetterStatus,
  type LetterSummary,
} from '@countinghouse/proto';
import { Alert, Button, Modal, Skeleton, Table, Tag } from 'antd';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { downloadSignedLetter, pdfName, useClientLettersQuery, useLetterStatusesQuery, useSendClientLetterMutation } from './api';

const STATUS_COLOURS: Record<LetterStatus, string> = {
  not_sent: 'default',
  awaiting_signature: 'gold',
  signed: 'green',
  superseded: 'default',
};

/** The status as the tag shows it ('Signed 3 Nov 2026', 'Awaiting signature'). */
export function letterStatusText(status: LetterStatus, signedAt?: string | null): string {
  return status === 'signed' && signedAt ? `Signed ${formatDate(signedAt)}` : LETTER_STATUS_LABELS[status];
}

export function LetterStatusTag({ status, signedAt }: { status: LetterStatus; signedAt?: string | null }) {
  return <Tag color={STATUS_COLOURS[status]}>{letterStatusText(status, signedAt)}</Tag>;
}

/** The client list's badge: the client's engagement letter status (one query for the whole list). */
export function useLetterStatusOf(realm: 'admin' | 'user' = 'admin') {
  const q = useLetterStatusesQuery({ realm });
  const map = new Map((q.data?.statuses ?? []).map((s) => [s.client_id, s]));
  return (clientId: string) => map.get(clientId) ?? { status: 'not_sent' as const, signed_at: null };
}

export interface LetterTarget {
  id: string;
  company_name: string;
}

/** A client's engagement letters for the practice: status, every version, the signed PDFs, send a new version. */
export function ClientLetterDialog({
  client,
  onClose,
  realm = 'admin',
  canSend = true,
}: {
  client: LetterTarget;
  onClose: () => void;
  realm?: 'admin' | 'user';
  canSend?: boolean;
}) {
  return (
    <Modal
      open
      width={820}
      title={`Engagement letter: ${client.company_name}`}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <ClientLettersView clientId={client.id} realm={realm} canSend={canSend} />
    </Modal>
  );
}

/** A client's letters: status, every version with its signed PDF, and (for those who may) a new version. */
export function ClientLettersView({
  clientId,
  realm = 'admin',
  canSend = true,
}: {
  clientId: string;
  realm?: 'admin' | 'user';
  canSend?: boolean;
}) {
  const q = useClientLettersQuery({ clientId: clientId, realm });
  const [send, sending] = useSendClientLetterMutation();
  const toast = useToast();
  const sendNew = async () => {
    try {
      toast.success(serverText((await send({ clientId: clientId, realm }).unwrap()).message));
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? 'The letter could not be sent.'));
    }
  };
  return (
    <>
      {q.isLoading && <Skeleton active />}
      {q.isError && <Alert type="error" showIcon title={errorBody(q.error)?.message ?? 'The letters could not be loaded.'} />}
      {q.data && (
        <>
          <p>
            Status: <LetterStatusTag status={q.data.status} signedAt={q.data.current?.signed_at} />
          </p>
          <Table<LetterSummary>
            rowKey="id"
            scroll={{ x: 'max-content' }}
            tableLayout="auto"
            size="small"
            pagination={false}
            dataSource={q.data.letters}
            locale={{ emptyText: 'No letter sent yet: a letter goes out when the client has a package and a sign-in account.' }}
            columns={[
              { title: 'Version', dataIndex: 'version', key: 'v' },
              { title: 'Package', key: 'p', render: (_: unknown, l) => `${l.package_name} (£${l.monthly_fee.toFixed(2)}/month)` },
              { title: 'Why', key: 'r', render: (_: unknown, l) => LETTER_REASON_LABELS[l.reason] },
              { title: 'Sent', key: 's', render: (_: unknown, l) => formatDateTime(l.sent_at) },
              { title: 'Status', key: 'st', render: (_: unknown, l) => <LetterStatusTag status={l.status} signedAt={l.signed_at} /> },
              {
                title: 'Signed PDF',
                key: 'pdf',
                fixed: 'right' as const,
                render: (_: unknown, l) =>
                  l.signed_at ? (
                    <Button
                      size="small"
                      onClick={() =>
                        void downloadSignedLetter(l.id, pdfName(l.version, l.signed_at!), realm).catch((e: Error) =>
                          toast.error(serverText(e.message)),
                        )
                      }
                    >
                      Download (signed by {l.signer_name})
                    </Button>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
          {canSend && (
            <Button className="client-gap" style={{ marginTop: 12 }} loading={sending.isLoading} onClick={() => void sendNew()}>
              Send a new version for signature
            </Button>
          )}
        </>
      )}
    </>
  );
}

import { Alert, Modal, Tabs } from 'antd';
import type { AuthRealm } from '../../app/api';
import { useClientDeadlinesQuery, useClientTaxRecordQuery } from './api';
import { DeadlineTable } from './DeadlineTable';
import { TaxProfileForm } from './TaxProfileForm';
import { useMarkDone } from './use-mark-done';
import './deadlines.css';
import { LoadingSpin } from '../../shared/LoadingSpin';

export interface DeadlinesTarget {
  id: string;
  company_name: string;
}

interface Props {
  client: DeadlinesTarget | null;
  onClose: () => void;
  realm?: AuthRealm;
  canEdit?: boolean;
}

/** A client's record: its deadlines and the tax-profile form (Companies House link included). */
export function ClientDeadlinesDialog({ client, onClose, realm = 'admin', canEdit = true }: Props) {
  const record = useClientTaxRecordQuery({ clientId: client?.id ?? '', realm }, { skip: !client });
  const deadlines = useClientDeadlinesQuery({ clientId: client?.id ?? '', realm }, { skip: !client });
  const markDone = useMarkDone(realm);
  const loadFailed = record.isError || deadlines.isError;
  return (
    <Modal
      open={client !== null}
      title={client ? `Deadlines — ${client.company_name}` : 'Deadlines'}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={980}
    >
      {loadFailed ? (
        <Alert type="error" showIcon title="The client's deadlines could not be loaded" />
      ) : !record.data ? (
        <LoadingSpin label="Loading the client's deadlines" />
      ) : (
        <Tabs
          items={[
            {
              key: 'deadlines',
              label: 'Deadlines',
              children: (
                <DeadlineTable
                  deadlines={deadlines.data?.deadlines ?? []}
                  loading={deadlines.isFetching}
                  showClient={false}
                  onMarkDone={canEdit ? markDone : undefined}
                  emptyText="No deadlines yet: fill in the tax profile"
                />
              ),
            },
            { key: 'profile', label: 'Tax profile', children: <TaxProfileForm record={record.data} realm={realm} canEdit={canEdit} /> },
          ]}
        />
      )}
    </Modal>
  );
}

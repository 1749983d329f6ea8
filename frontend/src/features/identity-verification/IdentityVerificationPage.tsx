import { useState } from 'react';
import { Alert, Button, Flex, Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { IDV_FILTERS, IDV_PERSON_KINDS, formatCount, type IdentityPerson, type IdvFilter } from '@countinghouse/proto';
import { usePageTitle } from '../../shared/use-page-title';
import { clientFirst } from '../../shared/client-first';
import { useNarrow } from '../../shared/use-narrow';
import { useTeamMembersQuery } from '../crm/api';
import { ClientSelect } from '../crm/components/ClientSelect';
import { useIdentityPeopleQuery } from './api';
import { AcspSettingsCard, AcspVerificationsCard, RecordVerificationModal, useCan } from './AcspParts';

const STATUS_COLOURS: Record<IdentityPerson['status'], string> = { verified: 'green', due: 'blue', overdue: 'red', unknown: 'default' };
const kindLabel = (k: string) => IDV_PERSON_KINDS.find((x) => x.value === k)?.label ?? k;

/**
 * /admin/identity-verification: every director and PSC of every client with their Companies House
 * identity verification (ECCTA 2023): status and due date, filtered by status, client and accountant.
 */
export function IdentityVerificationPage() {
  usePageTitle('Identity verification');
  const narrow = useNarrow();
  const [filter, setFilter] = useState<IdvFilter>('not_verified');
  const [clientId, setClientId] = useState<string | null>(null);
  const [assignee, setAssignee] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const team = useTeamMembersQuery({ realm: 'admin' });
  const list = useIdentityPeopleQuery({
    filter,
    page,
    page_size: pageSize,
    ...(clientId ? { client_id: clientId } : {}),
    ...(assignee ? { assignee_id: assignee } : {}),
  });
  const first =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const accountants = (team.data?.members ?? []).filter((m) => m.roles.includes('accountant'));
  // The practice as an ACSP (issue #30): its settings (managers and admins) and its own verifications.
  const canSettings = useCan('identity_verification.settings');
  const canRecord = useCan('identity_verification.record');
  const [recordFor, setRecordFor] = useState<IdentityPerson | null>(null);

  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={1}>Identity verification</Typography.Title>
        <Typography.Text type="secondary">
          Every director and person with significant control must verify their identity with Companies House (Economic Crime and Corporate
          Transparency Act 2023). Dates come from Companies House, or from the rules where it gives none.
        </Typography.Text>
      </div>
      <Flex wrap gap={8} role="search" aria-label="Filter people">
        <Select<IdvFilter>
          aria-label="Status"
          value={filter}
          onChange={first(setFilter)}
          options={IDV_FILTERS.map((f) => ({ value: f.value, label: f.label }))}
          style={{ width: 200 }}
        />
        <div style={{ width: 280 }}>
          <ClientSelect aria-label="Client" value={clientId} onChange={first(setClientId)} />
        </div>
        {accountants.length > 0 && (
          <Select<string>
            aria-label="Accountant"
            allowClear
            placeholder="All accountants"
            value={assignee}
            onChange={first(setAssignee)}
            options={[{ value: 'none', label: 'No accountant' }, ...accountants.map((m) => ({ value: m.user_id, label: m.name }))]}
            style={{ width: 220 }}
          />
        )}
      </Flex>
      {clientId && <AcspVerificationsCard clientId={clientId} />}
      {list.isError ? (
        <Alert type="error" showIcon title="The people could not be loaded" description="Try again in a moment." />
      ) : (
        <>
          <Typography.Text type="secondary">
            {list.data
              ? `${formatCount(list.data.total)}${list.data.total_capped ? '+' : ''} ${list.data.total === 1 ? 'person' : 'people'}`
              : ' '}
          </Typography.Text>
          <Table<IdentityPerson>
            rowKey={(p) => `${p.client_id}:${p.person_key}`}
            dataSource={list.data?.people ?? []}
            loading={list.isFetching}
            scroll={{ x: 720 }}
            locale={{ emptyText: filter === 'overdue' ? 'Nobody is overdue' : 'Nobody to show' }}
            // At 390 px the client's name comes first (issue 26).
            columns={clientFirst<TableColumnsType<IdentityPerson>[number]>(
              [
                { title: 'Person', dataIndex: 'name', key: 'name' },
                { title: 'Role', dataIndex: 'person_kind', key: 'kind', render: (k: string) => kindLabel(k) },
                { title: 'Client', dataIndex: 'client_name', key: 'client' },
                {
                  title: 'Status',
                  key: 'status',
                  render: (_: unknown, p) => (
                    <Tag color={STATUS_COLOURS[p.status]}>
                      {p.status_text}
                      {p.status === 'verified' && p.verified_by ? ` by ${p.verified_by}` : ''}
                    </Tag>
                  ),
                },
                ...(canRecord
                  ? [
                      {
                        title: 'Actions',
                        key: 'actions',
                        render: (_: unknown, p: IdentityPerson) =>
                          p.person_kind === 'relevant_legal_entity' ? null : (
                            <Button size="small" onClick={() => setRecordFor(p)} aria-label={`Record verification of ${p.name}`}>
                              Record verification
                            </Button>
                          ),
                      },
                    ]
                  : []),
              ],
              narrow,
              'client',
            )}
            pagination={{
              current: page,
              pageSize,
              total: list.data?.total ?? 0,
              onChange: (p, s) => {
                setPage(p);
                setPageSize(s);
              },
            }}
          />
        </>
      )}
      {recordFor && (
        <RecordVerificationModal
          clientId={recordFor.client_id}
          clientName={recordFor.client_name}
          personName={recordFor.name}
          personKey={recordFor.person_key}
          onClose={() => setRecordFor(null)}
        />
      )}
      {canSettings && <AcspSettingsCard />}
    </Flex>
  );
}

export default IdentityVerificationPage;

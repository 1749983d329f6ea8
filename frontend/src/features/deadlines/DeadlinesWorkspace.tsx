import { useState } from 'react';
import { Alert, Flex, Select, Typography } from 'antd';
import { DEADLINE_KINDS, formatCount, type DeadlineKind, type DeadlineWindow } from '@countinghouse/proto';
import type { AuthRealm } from '../../app/api';
import { useTeamMembersQuery } from '../crm/api';
import { ClientSelect } from '../crm/components/ClientSelect';
import { useDeadlinesQuery } from './api';
import { DeadlineTable } from './DeadlineTable';
import { useMarkDone, useUndoDone } from './use-mark-done';
import { overdueFirst } from '../workspace/order';
import './deadlines.css';

const WINDOWS: Array<{ value: DeadlineWindow; label: string }> = [
  { value: '30', label: 'Next 30 days' },
  { value: '60', label: 'Next 60 days' },
  { value: '90', label: 'Next 90 days' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'all', label: 'All open' },
];

interface Props {
  realm?: AuthRealm;
  /** The client filter searches crm's clients (admin panel only). */
  clientFilter?: boolean;
  initialClientId?: string | null;
}

/** Every visible client's coming deadlines with filters by kind, client, assignee and window; mark done with confirmation. */
export function DeadlinesWorkspace({ realm = 'admin', clientFilter = true, initialClientId = null }: Props) {
  const [kind, setKind] = useState<DeadlineKind | undefined>();
  const [window, setWindow] = useState<DeadlineWindow>(initialClientId ? 'all' : '90');
  const [clientId, setClientId] = useState<string | null>(initialClientId);
  const [assignee, setAssignee] = useState<string | undefined>();
  const [done, setDone] = useState<'open' | 'done'>('open');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const team = useTeamMembersQuery({ realm: 'admin' }, { skip: realm !== 'admin' });
  const list = useDeadlinesQuery({
    realm,
    // The Done filter lists done deadlines whatever their date; open ones keep the window.
    ...(done === 'done' ? { status: 'done' as const } : { window }),
    page,
    page_size: pageSize,
    ...(kind ? { kind } : {}),
    ...(clientId ? { client_id: clientId } : {}),
    ...(assignee ? { assignee_id: assignee } : {}),
  });
  const markDone = useMarkDone(realm);
  const undo = useUndoDone(realm);
  const first =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const accountants = (team.data?.members ?? []).filter((m) => m.roles.includes('accountant'));

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} role="search" aria-label="Filter deadlines">
        <Select<'open' | 'done'>
          aria-label="Status"
          value={done}
          onChange={first(setDone)}
          options={[
            { value: 'open', label: 'Open' },
            { value: 'done', label: 'Done' },
          ]}
          style={{ width: 120 }}
        />
        <Select<DeadlineWindow>
          aria-label="Window"
          disabled={done === 'done'}
          value={window}
          onChange={first(setWindow)}
          options={WINDOWS}
          style={{ width: 160 }}
        />
        <Select<DeadlineKind>
          aria-label="Kind"
          allowClear
          placeholder="All kinds"
          value={kind}
          onChange={first(setKind)}
          options={DEADLINE_KINDS.map((k) => ({ value: k.value, label: k.label }))}
          style={{ width: 300 }}
        />
        {clientFilter && (
          <div style={{ width: 280 }}>
            <ClientSelect aria-label="Client" value={clientId} onChange={first(setClientId)} />
          </div>
        )}
        {accountants.length > 0 && (
          <Select<string>
            aria-label="Assignee"
            allowClear
            placeholder="All accountants"
            value={assignee}
            onChange={first(setAssignee)}
            options={[{ value: 'none', label: 'No accountant' }, ...accountants.map((m) => ({ value: m.user_id, label: m.name }))]}
            style={{ width: 220 }}
          />
        )}
      </Flex>
      {list.isError ? (
        <Alert type="error" showIcon title="The deadlines could not be loaded" description="Try again in a moment." />
      ) : (
        <>
          <Typography.Text type="secondary">
            {list.data ? `${formatCount(list.data.total)}${list.data.total_capped ? '+' : ''} deadlines` : ' '}
          </Typography.Text>
          <DeadlineTable
            deadlines={done === 'done' ? (list.data?.deadlines ?? []) : overdueFirst(list.data?.deadlines ?? [])}
            loading={list.isFetching}
            onMarkDone={markDone}
            onUndo={(d) => void undo(d)}
            emptyText={
              done === 'done' ? 'No deadlines marked done' : window === 'overdue' ? 'Nothing overdue' : 'No deadlines in this window'
            }
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
    </Flex>
  );
}

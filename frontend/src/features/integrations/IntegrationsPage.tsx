import {
  CONNECT_RESULTS,
  formatDateTime,
  INTEGRATION_TEXTS,
  INTEGRATION_TYPES,
  INTEGRATIONS_ROUTES,
  MESSAGES,
  PROVIDER_LABELS,
  PROVIDER_MESSAGES,
  type IntegrationCard as Card,
  type IntegrationSummary,
  type IntegrationType,
  type SyncJob,
} from '@countinghouse/proto';
import { Alert, Button, Card as AntCard, Col, Descriptions, Progress, Result, Row, Space, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorBody } from '../../app/api';
import { PageSpinner } from '../../shared/PageSpinner';
import { formattedText, serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import {
  useConnectIntegrationMutation,
  useDisconnectIntegrationMutation,
  useIntegrationsQuery,
  useSyncIntegrationMutation,
  useSyncJobQuery,
} from './api';
import './integrations.css';
import { PageHeader } from '../../shared/PageHeader';

const RUNNING: ReadonlyArray<SyncJob['state']> = ['waiting', 'active', 'delayed'];

function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** Watches one sync job until it settles, showing its progress. */
function SyncWatcher({ jobId, provider, onDone }: { jobId: string; provider: IntegrationType; onDone: (job: SyncJob) => void }) {
  const [settled, setSettled] = useState(false);
  const job = useSyncJobQuery(jobId, { pollingInterval: settled ? 0 : 1000, skipPollingIfUnfocused: false });
  const state = job.data?.state;
  useEffect(() => {
    if (settled || !job.data || RUNNING.includes(job.data.state)) return;
    setSettled(true);
    onDone(job.data);
  }, [job.data, settled, onDone]);
  useEffect(() => {
    if (job.isError && !settled) {
      setSettled(true);
      onDone({ id: jobId, integration_type: provider, state: 'failed', progress: 0 });
    }
  }, [job.isError, settled, jobId, provider, onDone]);
  if (settled) return null;
  const waiting = job.data?.retry_at && job.data.notice ? job.data : null;
  return (
    <div className="integration-card__progress" aria-label="Sync progress">
      {waiting ? (
        // The provider asked us to slow down: the sync is queued, not failed.
        <Alert type="info" showIcon title={waiting.notice} description={`Next try: ${formatDateTime(waiting.retry_at)}`} role="status" />
      ) : (
        <Typography.Text type="secondary">{state === 'active' ? 'Syncing…' : 'Waiting to sync…'}</Typography.Text>
      )}
      <Progress percent={Math.round(job.data?.progress ?? 0)} status="active" size="small" />
    </div>
  );
}

function Summary({ s }: { s: IntegrationSummary }) {
  return (
    <Descriptions size="small" column={1} className="integration-card__summary">
      <Descriptions.Item label="Owed to you">{money(s.receivables, s.currency)}</Descriptions.Item>
      <Descriptions.Item label="Overdue to you">{money(s.overdue_receivables, s.currency)}</Descriptions.Item>
      <Descriptions.Item label="You owe">{money(s.payables, s.currency)}</Descriptions.Item>
      <Descriptions.Item label="Overdue bills">{money(s.overdue_payables, s.currency)}</Descriptions.Item>
      <Descriptions.Item label="Contacts">{s.contacts}</Descriptions.Item>
      <Descriptions.Item label="Open invoices">{s.invoices}</Descriptions.Item>
    </Descriptions>
  );
}

function IntegrationCardView({ card, onChanged }: { card: Card; onChanged: () => void }) {
  const provider = card.integration_type;
  const label = PROVIDER_LABELS[provider];
  const toast = useToast();
  const [connect, connecting] = useConnectIntegrationMutation();
  const [sync, syncing] = useSyncIntegrationMutation();
  const [disconnect, disconnecting] = useDisconnectIntegrationMutation();
  // A sync started here, or one already running when the page opened.
  const [jobId, setJobId] = useState<string | null>(card.sync && RUNNING.includes(card.sync.state) ? card.sync.id : null);

  const onConnect = async () => {
    try {
      const { authUrl } = await connect(provider).unwrap();
      window.location.assign(authUrl);
    } catch (err) {
      const body = errorBody(err);
      if (body?.code === 'NOT_CONFIGURED' || body?.code === 'CONFLICT') toast.error(serverText(body.message), `connect-${provider}`);
      else toast.error(formattedText(PROVIDER_MESSAGES[provider].failedToStart), `connect-${provider}`);
    }
  };
  const onSync = async () => {
    try {
      setJobId((await sync(provider).unwrap()).jobId);
    } catch {
      toast.error(MESSAGES.failedToSyncData, `sync-${provider}`);
    }
  };
  const onSyncDone = (job: SyncJob) => {
    setJobId(null);
    if (job.state === 'completed') toast.success(formattedText(PROVIDER_MESSAGES[provider].synced), `sync-${provider}`);
    else toast.error(MESSAGES.failedToSyncData, `sync-${provider}`);
    onChanged();
  };
  const onDisconnect = async () => {
    try {
      await disconnect(provider).unwrap();
      toast.success(MESSAGES.integrationDisconnected, `disconnect-${provider}`);
    } catch {
      toast.error(MESSAGES.failedToDisconnectIntegration, `disconnect-${provider}`);
    }
  };

  const connected = card.is_active;
  const connectButton = (
    <Button
      type={connected ? 'default' : 'primary'}
      onClick={() => void onConnect()}
      loading={connecting.isLoading}
      disabled={!card.configured}
    >
      Connect
    </Button>
  );
  return (
    <AntCard
      title={label}
      className="integration-card"
      data-testid={`integration-${provider}`}
      extra={connected ? <Tag color="green">Connected</Tag> : <Tag>Not Connected</Tag>}
    >
      <Descriptions size="small" column={1}>
        <Descriptions.Item label="Organisation">{card.integration_data.company_name ?? 'N/A'}</Descriptions.Item>
        <Descriptions.Item label="Last Synced">{card.last_sync_at ? formatDateTime(card.last_sync_at) : 'Never'}</Descriptions.Item>
      </Descriptions>
      {connected && card.integration_data.summary ? <Summary s={card.integration_data.summary} /> : null}
      {card.needs_reconnect ? <Alert type="warning" showIcon title={INTEGRATION_TEXTS.needsReconnect(provider)} /> : null}
      {!card.configured ? (
        <Typography.Paragraph type="secondary" className="integration-card__note">
          {INTEGRATION_TEXTS.notConfigured(provider)}
        </Typography.Paragraph>
      ) : null}
      {jobId ? <SyncWatcher jobId={jobId} provider={provider} onDone={onSyncDone} /> : null}
      <Space wrap className="integration-card__actions">
        <Button
          type="primary"
          onClick={() => void onSync()}
          loading={syncing.isLoading || jobId !== null}
          disabled={!connected || card.needs_reconnect}
        >
          Sync Now
        </Button>
        <Button danger onClick={() => void onDisconnect()} loading={disconnecting.isLoading} disabled={!connected}>
          Disconnect
        </Button>
        {card.configured ? connectButton : <Tooltip title={INTEGRATION_TEXTS.notConfigured(provider)}>{connectButton}</Tooltip>}
      </Space>
    </AntCard>
  );
}

/**
 * /integrations: one card per provider. Coming back from a provider (?xero=connected|error, and the
 * QuickBooks equivalent) it says how it went, clears the query without a new history entry, and
 * reloads the list.
 */
export function IntegrationsPage() {
  usePageTitle('Integrations');
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const list = useIntegrationsQuery();
  const refetch = list.refetch;

  // After the first load, so the reload below really is a second read of the list.
  const loaded = list.isSuccess || list.isError;
  const flagsHandled = useRef(false);
  useEffect(() => {
    if (flagsHandled.current || !loaded) return;
    const flags = INTEGRATION_TYPES.map((p) => [p, params.get(p)] as const).filter(([, v]) => v !== null);
    if (flags.length === 0) return;
    flagsHandled.current = true;
    for (const [p, value] of flags) {
      if (value === 'connected') toast.success(formattedText(PROVIDER_MESSAGES[p].connected), `connect-${p}`);
      else if ((CONNECT_RESULTS as readonly string[]).includes(value ?? ''))
        toast.error(formattedText(PROVIDER_MESSAGES[p].failedToConnect), `connect-${p}`);
    }
    setParams({}, { replace: true });
    void refetch();
  }, [loaded, params, setParams, toast, refetch]);

  const loadFailed = list.isError;
  useEffect(() => {
    if (loadFailed) toast.error(MESSAGES.failedToLoadIntegrations, 'integrations-load');
  }, [loadFailed, toast]);

  if (list.isLoading) return <PageSpinner />;
  if (list.isError || !list.data) {
    return (
      <Result
        status="error"
        title={MESSAGES.failedToLoadIntegrations}
        extra={
          <Button type="primary" onClick={() => void refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  return (
    <section className="integrations-page">
      <PageHeader title="Integrations" />
      <Typography.Paragraph type="secondary">
        Connect your accounting software so your accountant can see your figures. We only read your data.
      </Typography.Paragraph>
      {list.data.client === null ? <Alert type="info" showIcon title={INTEGRATION_TEXTS.noClientRecord} /> : null}
      <Row gutter={[16, 16]}>
        {list.data.integrations.map((card) => (
          <Col xs={24} md={12} key={card.integration_type}>
            <IntegrationCardView card={card} onChanged={() => void refetch()} />
          </Col>
        ))}
      </Row>
    </section>
  );
}

/**
 * /integrations/xero/callback: for a Xero app whose registered redirect URI is this page (set
 * XERO_REDIRECT_URI to it), hand the code and state to the API, which finishes the connection and
 * returns the browser to /integrations?xero=connected|error.
 */
export function IntegrationsCallbackPage({ provider = 'xero' }: { provider?: IntegrationType }) {
  useEffect(() => {
    window.location.replace(`${INTEGRATIONS_ROUTES.callback(provider)}${window.location.search}`);
  }, [provider]);
  return <PageSpinner />;
}

export default IntegrationsPage;

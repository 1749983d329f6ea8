import { findPackage, formatDate, formatGBP, MESSAGES, PACKAGE_CATALOGUE, type SubscriptionCheck } from '@countinghouse/proto';
import { Card, Modal, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useChangePackageMutation } from './api';
import './client.css';

// The client's subscription: its facts (the portal's Home and Billing) and the package change (Billing).

export function StatusBadge({ status }: { status: string | null }) {
  // The spec: an active one shows a green Active badge; any other value is shown as text.
  if (status === 'active') return <Tag color="green">Active</Tag>;
  return <span className="client-status">{status ?? 'none'}</span>;
}

export function ChangePackage({ current }: { current: string }) {
  const [choice, setChoice] = useState<string | null>(null);
  const [change, changing] = useChangePackageMutation();
  const toast = useToast();
  const next = findPackage(choice);
  const from = findPackage(current);
  const confirm = async () => {
    if (!next) return;
    try {
      await change({ package_name: next.name }).unwrap();
      toast.success(serverText(`Your package is now ${next.name}.`));
      setChoice(null);
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? MESSAGES.unexpectedError));
    }
  };
  return (
    <Card title="Change package" className="client-gap">
      <p>Upgrade or downgrade at any time. The change applies straight away and your next bill is adjusted for the days left.</p>
      <Space wrap>
        <label htmlFor="change-package" className="client-label">
          New package
        </label>
        <Select
          id="change-package"
          aria-label="New package"
          style={{ minWidth: 260 }}
          placeholder="Choose a package"
          value={choice}
          onChange={setChoice}
          options={PACKAGE_CATALOGUE.filter((p) => p.name !== current).map((p) => ({
            value: p.name,
            label: `${p.name}: ${formatGBP(p.monthlyFee)}/month`,
          }))}
        />
      </Space>
      <Modal
        open={Boolean(next)}
        title={next ? `Move to ${next.name}?` : ''}
        okText="Change package"
        confirmLoading={changing.isLoading}
        onOk={() => void confirm()}
        onCancel={() => setChoice(null)}
      >
        {next && (
          <p>
            From {current} ({formatGBP(from?.monthlyFee ?? 0)}/month) to {next.name} ({formatGBP(next.monthlyFee)}/month).
          </p>
        )}
      </Modal>
    </Card>
  );
}

/** Status, package, monthly fee and next billing date (the next payment). */
export function SubscriptionCard({ s, title = 'Your subscription' }: { s: SubscriptionCheck; title?: string }) {
  return (
    <Card title={title} className="client-gap">
      <dl className="client-facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={s.status} />
        </dd>
        <dt>Package</dt>
        <dd>{s.package_name}</dd>
        <dt>Monthly fee</dt>
        <dd>{formatGBP(s.monthly_fee)}/month</dd>
        <dt>Next billing date</dt>
        <dd>{formatDate(s.subscription_end) || 'Not known yet'}</dd>
      </dl>
      {s.status === 'overdue' && <p className="client-warning">Your last payment did not go through. Please update your card.</p>}
    </Card>
  );
}

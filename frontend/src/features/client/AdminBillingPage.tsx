import { AdminInvoicesCard } from './Invoices';
import {
  formatDate,
  formatGBP,
  MONTHLY_REVENUE_DEFINITION,
  MONTHLY_REVENUE_LABEL,
  type AdminSubscription,
  type FailedPayment,
} from '@countinghouse/proto';
import { Alert, Card, Col, Row, Statistic, Table, Typography } from 'antd';
import { useState } from 'react';
import { usePageTitle } from '../../shared/use-page-title';
import { useAdminBillingSummaryQuery, useAdminSubscriptionsQuery } from './api';
import { PageHeader } from '../../shared/PageHeader';
import { StatusBadge } from '../../shared/StatusBadge';

/** /admin/billing: subscriptions and their status, monthly recurring revenue, failed payments (admin and manager). */
export function AdminBillingPage() {
  usePageTitle('Billing');
  const [page, setPage] = useState(1);
  const pageSize = 25;
  const summary = useAdminBillingSummaryQuery();
  const list = useAdminSubscriptionsQuery({ page, page_size: pageSize });
  const s = summary.data;

  return (
    <div>
      <PageHeader title="Billing" />
      {s?.provider === 'test' && (
        <Alert
          type="info"
          showIcon
          className="client-gap"
          title="Stripe is not configured: payments go through the built-in test checkout."
        />
      )}
      {(summary.isError || list.isError) && (
        <Alert type="error" showIcon className="client-gap" title="Billing figures could not be loaded." />
      )}
      <Row gutter={[16, 16]} className="client-gap">
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={MONTHLY_REVENUE_LABEL} value={s ? formatGBP(s.mrr) : '…'} />
            <Typography.Text type="secondary">
              {MONTHLY_REVENUE_DEFINITION}
              {s && s.overdue_fees > 0 ? `; ${formatGBP(s.overdue_fees)} more is overdue` : ''}
            </Typography.Text>
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="Active subscriptions" value={s?.active ?? '…'} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="Overdue" value={s?.overdue ?? '…'} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title="Collected, last 30 days" value={s ? formatGBP(s.collected_30d) : '…'} />
          </Card>
        </Col>
      </Row>
      <Card title="Subscriptions" className="client-gap">
        <Table<AdminSubscription>
          rowKey="id"
          loading={list.isFetching}
          dataSource={list.data?.subscriptions ?? []}
          pagination={{ current: page, pageSize, total: list.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          locale={{ emptyText: 'No subscriptions yet' }}
          columns={[
            { title: 'Client e-mail', dataIndex: 'email' },
            { title: 'Package', dataIndex: 'package_name' },
            { title: 'Monthly fee', dataIndex: 'monthly_fee', render: (v: number) => `${formatGBP(v)}/month` },
            { title: 'Status', dataIndex: 'status', render: (v: string) => <StatusBadge status={v} /> },
            { title: 'Next billing date', dataIndex: 'current_period_end', render: (v: string | null) => formatDate(v) },
            { title: 'Provider', dataIndex: 'provider' },
            { title: 'Started', dataIndex: 'created_at', render: (v: string) => formatDate(v) },
          ]}
        />
      </Card>
      <Card title="Failed payments">
        <Table<FailedPayment>
          rowKey="id"
          dataSource={s?.failed_payments ?? []}
          pagination={false}
          locale={{ emptyText: 'No failed payments' }}
          columns={[
            { title: 'Client e-mail', dataIndex: 'email' },
            { title: 'Package', dataIndex: 'package_name' },
            { title: 'Amount', dataIndex: 'amount', render: (v: number) => formatGBP(v) },
            { title: 'Invoice', dataIndex: 'provider_invoice_id' },
            { title: 'When', dataIndex: 'occurred_at', render: (v: string) => formatDate(v) },
          ]}
        />
      </Card>
      <AdminInvoicesCard />
    </div>
  );
}

export default AdminBillingPage;

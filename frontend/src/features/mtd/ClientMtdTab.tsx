import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  Skeleton,
  Table,
  Tag,
  Typography,
} from 'antd';
import {
  formatDate,
  formatDateTime,
  formatGBP,
  MTD_EXPENSE_CATEGORIES,
  MTD_PROPERTY_EXPENSES,
  MTD_PROPERTY_INCOME,
  MTD_PROPERTY_NON_NEGATIVE,
  NINO_PATTERN,
  POSTCODE_PATTERN,
  type MtdClient,
  type MtdExpenseCategory,
  type MtdObligation,
  type MtdPropertyExpense,
  type MtdPropertyFigures,
  type MtdPropertyIncome,
  type MtdUpdateFigures,
} from '@countinghouse/proto';
import { errorBody, httpStatus, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import {
  useMtdAuthorisationActionMutation,
  useMtdCalculationMutation,
  useMtdClientQuery,
  useRecordMtdIncomeMutation,
  useRefreshMtdObligationsMutation,
  useRequestMtdAuthorisationMutation,
  useReviewMtdPropertyUpdateMutation,
  useReviewMtdUpdateMutation,
  useSetMtdExemptionMutation,
  useSetMtdIdentifiersMutation,
  useSubmitMtdPropertyUpdateMutation,
  useSubmitMtdUpdateMutation,
} from './api';
import { usePostMessageMutation } from '../requests/api';
import { deviceData } from './device';
import { useFail } from './use-fail';
import { EXPENSE_LABEL, PROPERTY_EXPENSE_LABEL, PROPERTY_INCOME_LABEL } from './labels';
import { CalculationFigures, FinalDeclaration } from './FinalDeclaration';
import { LedgerPanel } from './LedgerPanel';
import './mtd.css';

const SCOPE_LABEL: Record<string, string> = {
  now: 'Mandated now (from 6 April 2026)',
  april_2027: 'From 6 April 2027',
  april_2028: 'From 6 April 2028',
};
const STATUS_COLOUR: Record<string, string> = {
  Pending: 'gold',
  Accepted: 'green',
  Expired: 'default',
  Cancelled: 'default',
  Rejected: 'red',
};

export function obligationStatus(o: Pick<MtdObligation, 'status' | 'overdue' | 'receivedDate'>) {
  if (o.status === 'fulfilled') return <Tag color="green">Done{o.receivedDate ? ` ${formatDate(o.receivedDate)}` : ''}</Tag>;
  if (o.overdue) return <Tag color="red">Overdue</Tag>;
  return <Tag color="blue">Due</Tag>;
}

/** The MTD section of a client's record: identifiers, scope, authorisation, obligations and quarterly updates. */
export function ClientMtdTab({ clientId, realm, canSubmit = false }: { clientId: string; realm: AuthRealm; canSubmit?: boolean }) {
  const q = useMtdClientQuery({ clientId, realm });
  // Without the MTD permission (an MLRO opening the record) the section is simply not there.
  if (q.isError && httpStatus(q.error) === 403) return null;
  if (q.isError) return <Alert type="error" showIcon message={errorBody(q.error)?.message ?? 'Making Tax Digital could not be loaded.'} />;
  if (!q.data) return <Skeleton active />;
  return (
    <Flex vertical gap={16}>
      <IdentifiersAndScope data={q.data} realm={realm} />
      <Authorisation data={q.data} realm={realm} />
      <Obligations data={q.data} realm={realm} />
      <QuarterlyUpdate data={q.data} realm={realm} />
      <FinalDeclaration data={q.data} realm={realm} canSubmit={canSubmit} />
    </Flex>
  );
}

function IdentifiersAndScope({ data, realm }: { data: MtdClient; realm: AuthRealm }) {
  const [save, saving] = useSetMtdIdentifiersMutation();
  const [income, recording] = useRecordMtdIncomeMutation();
  const [exempt] = useSetMtdExemptionMutation();
  const fail = useFail();
  const toast = useToast();
  const base = { clientId: data.clientId, realm };
  return (
    <Card size="small" title="Who is in scope">
      <Descriptions size="small" column={{ xs: 1, md: 2 }}>
        <Descriptions.Item label="Mandated">
          {data.scope.mandatedFrom ? SCOPE_LABEL[data.scope.mandatedFrom] : 'Not mandated'}
        </Descriptions.Item>
        <Descriptions.Item label="Why">{data.scope.reason}</Descriptions.Item>
        {data.scope.letter && (
          <Descriptions.Item label="Letter to send" span={2}>
            <Typography.Paragraph copyable style={{ marginBottom: 0 }}>
              {data.scope.letter}
            </Typography.Paragraph>
          </Descriptions.Item>
        )}
      </Descriptions>
      <Flex wrap gap={24}>
        <Form
          layout="vertical"
          aria-label="National Insurance number and postcode"
          initialValues={{ nino: data.nino ?? '', postcode: data.postcode ?? '' }}
          onFinish={(v: { nino: string; postcode: string }) =>
            save({ ...base, nino: v.nino.toUpperCase().replace(/\s+/g, ''), postcode: v.postcode.toUpperCase() })
              .unwrap()
              .then(() => toast.success(serverText('Identifiers saved')), fail)
          }
        >
          <Form.Item
            name="nino"
            label="National Insurance number"
            rules={[
              {
                required: true,
                pattern: new RegExp(NINO_PATTERN.replace('^', '^\\s*').replace('$', '\\s*$'), 'i'),
                message: 'Enter a NINO like QQ123456C',
              },
            ]}
            normalize={(v: string) => v.toUpperCase().replace(/\s+/g, '')}
          >
            <Input autoComplete="off" style={{ maxWidth: 220 }} />
          </Form.Item>
          <Form.Item
            name="postcode"
            label="Postcode"
            rules={[{ required: true, pattern: new RegExp(POSTCODE_PATTERN), message: 'Enter a UK postcode' }]}
          >
            <Input autoComplete="off" style={{ maxWidth: 160 }} />
          </Form.Item>
          <Button htmlType="submit" loading={saving.isLoading}>
            Save identifiers
          </Button>
        </Form>
        <Form
          layout="vertical"
          aria-label="Qualifying income"
          initialValues={{ taxYear: '2025-26' }}
          onFinish={(v: { taxYear: string; amount: number }) =>
            income({ ...base, ...v })
              .unwrap()
              .then(() => toast.success(serverText('Qualifying income recorded')), fail)
          }
        >
          <Form.Item name="taxYear" label="Tax year">
            <Select style={{ width: 140 }} options={['2024-25', '2025-26', '2026-27', '2027-28'].map((y) => ({ value: y, label: y }))} />
          </Form.Item>
          <Form.Item name="amount" label="Qualifying income (£)" rules={[{ required: true, message: 'Enter the qualifying income' }]}>
            <InputNumber min={0} step={100} style={{ width: 180 }} />
          </Form.Item>
          <Button htmlType="submit" loading={recording.isLoading}>
            Record income
          </Button>
          {data.incomes.length > 0 && (
            <ul aria-label="Recorded income">
              {data.incomes.map((i) => (
                <li key={i.recordedAt}>
                  {i.taxYear}: {formatGBP(i.amount)} (recorded {formatDate(i.recordedAt)})
                </li>
              ))}
            </ul>
          )}
        </Form>
        <Form
          layout="vertical"
          aria-label="Exemption"
          initialValues={{ reason: data.scope.exemptionReason ?? '' }}
          onFinish={(v: { reason: string }) =>
            exempt({ ...base, reason: v.reason.trim() ? v.reason.trim() : null })
              .unwrap()
              .then(() => toast.success(serverText('Exemption saved')), fail)
          }
        >
          <Form.Item name="reason" label="Exemption reason (leave empty for none)">
            <Input style={{ maxWidth: 280 }} />
          </Form.Item>
          <Button htmlType="submit">Save exemption</Button>
        </Form>
      </Flex>
    </Card>
  );
}

function Authorisation({ data, realm }: { data: MtdClient; realm: AuthRealm }) {
  const [request, requesting] = useRequestMtdAuthorisationMutation();
  const [act, acting] = useMtdAuthorisationActionMutation();
  const [agentType, setAgentType] = useState<'main' | 'supporting'>('main');
  const [post, posting] = usePostMessageMutation();
  const fail = useFail();
  const toast = useToast();
  const a = data.authorisation;
  // The client's action link goes out through the product's own secure messages (the requests thread).
  const sendLink = (url: string, expiresOn: string) =>
    void post({
      clientId: data.clientId,
      realm,
      body:
        `Please authorise us to deal with HMRC for you for Making Tax Digital for Income Tax: open ${url} ` +
        `and sign in with your Government Gateway user ID. The request expires on ${formatDate(expiresOn)}.`,
    })
      .unwrap()
      .then(() => toast.success(serverText('The link was sent to the client in their secure messages')), fail);
  const canRequest = !a || ['Expired', 'Cancelled', 'Rejected', 'Deauthorised'].includes(a.status);
  return (
    <Card size="small" title="Authorisation with HMRC">
      {a ? (
        <Descriptions size="small" column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="Status">
            <Tag color={STATUS_COLOUR[a.status] ?? 'default'}>{a.status}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="Agent">{a.agentType === 'main' ? 'Main agent' : 'Supporting agent'}</Descriptions.Item>
          <Descriptions.Item label="Requested">{formatDateTime(a.requestedAt)}</Descriptions.Item>
          <Descriptions.Item label="Expires">{formatDate(a.expiresOn)}</Descriptions.Item>
          <Descriptions.Item label="Client's link" span={2}>
            {a.clientActionUrl ? (
              <Flex wrap gap={8} align="center">
                <Typography.Text copyable={{ text: a.clientActionUrl }}>Copy the link</Typography.Text>
                {a.status === 'Pending' && (
                  <Button size="small" loading={posting.isLoading} onClick={() => sendLink(a.clientActionUrl!, a.expiresOn)}>
                    Send it in the client's messages
                  </Button>
                )}
              </Flex>
            ) : (
              'Check the status to get the link'
            )}
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Empty description="No authorisation requested yet" />
      )}
      <Flex wrap gap={8} align="center">
        {a && (
          <Button
            loading={acting.isLoading}
            onClick={() => void act({ clientId: data.clientId, realm, id: a.id, action: 'check' }).unwrap().catch(fail)}
          >
            Check status
          </Button>
        )}
        {a?.status === 'Pending' && (
          <Button danger onClick={() => void act({ clientId: data.clientId, realm, id: a.id, action: 'cancel' }).unwrap().catch(fail)}>
            Cancel request
          </Button>
        )}
        {canRequest && (
          <>
            <Select
              aria-label="Agent type"
              value={agentType}
              onChange={setAgentType}
              style={{ width: 180 }}
              options={[
                { value: 'main', label: 'Main agent' },
                { value: 'supporting', label: 'Supporting agent' },
              ]}
            />
            <Button
              type="primary"
              loading={requesting.isLoading}
              onClick={() => void request({ clientId: data.clientId, realm, agentType }).unwrap().catch(fail)}
            >
              {a ? 'Send a new request' : 'Request authorisation'}
            </Button>
          </>
        )}
      </Flex>
    </Card>
  );
}

function Obligations({ data, realm }: { data: MtdClient; realm: AuthRealm }) {
  const [refresh, refreshing] = useRefreshMtdObligationsMutation();
  const fail = useFail();
  return (
    <Card
      size="small"
      title="Obligations from HMRC"
      extra={
        <Button
          loading={refreshing.isLoading}
          disabled={data.authorisation?.status !== 'Accepted'}
          onClick={() => void refresh({ clientId: data.clientId, realm, device: deviceData() }).unwrap().catch(fail)}
        >
          Refresh from HMRC
        </Button>
      }
    >
      {data.obligationsRefreshedAt && (
        <Typography.Paragraph type="secondary">Read from HMRC {formatDateTime(data.obligationsRefreshedAt)}</Typography.Paragraph>
      )}
      <Table
        size="small"
        rowKey={(o) => `${o.kind}:${o.businessId ?? ''}:${o.periodEndDate}`}
        dataSource={data.obligations}
        pagination={false}
        scroll={{ x: true }}
        locale={{
          emptyText:
            data.authorisation?.status === 'Accepted'
              ? 'No obligations read yet'
              : 'Obligations appear once the client has authorised the practice',
        }}
        columns={[
          {
            title: 'Obligation',
            render: (_v, o) =>
              o.kind === 'final_declaration' ? 'Final declaration' : `Quarterly update (${o.typeOfBusiness ?? 'business'})`,
          },
          { title: 'Period', render: (_v, o) => `${formatDate(o.periodStartDate)} – ${formatDate(o.periodEndDate)}` },
          { title: 'Due', render: (_v, o) => formatDate(o.dueDate) },
          { title: 'Status', render: (_v, o) => obligationStatus(o) },
        ]}
      />
    </Card>
  );
}

type FormFigures = Omit<MtdUpdateFigures, 'device' | 'expenses' | 'turnover'> & {
  turnover?: number;
  expenses?: Record<string, number | null>;
  property?: { income?: Record<string, number | null>; expenses?: Record<string, number | null> };
};
/** The figures entered, without empty fields (a blank is not a zero the person typed). */
const entered = <T extends string>(v: Record<string, number | null> | undefined) =>
  Object.fromEntries(Object.entries(v ?? {}).filter(([, n]) => typeof n === 'number')) as Partial<Record<T, number>>;
type Pending =
  | { kind: 'self-employment'; figures: MtdUpdateFigures; body: unknown; reviewHash: string }
  | { kind: 'uk-property'; figures: MtdPropertyFigures; body: unknown; reviewHash: string };

/** Businesses whose quarterly updates the product sends: self-employment (SE Business 5.0) and UK property (Property Business 6.0). */
const UPDATABLE = new Set(['self-employment', 'uk-property']);

function QuarterlyUpdate({ data, realm }: { data: MtdClient; realm: AuthRealm }) {
  const [review, reviewing] = useReviewMtdUpdateMutation();
  const [submit, submitting] = useSubmitMtdUpdateMutation();
  const [reviewProperty, reviewingProperty] = useReviewMtdPropertyUpdateMutation();
  const [submitProperty, submittingProperty] = useSubmitMtdPropertyUpdateMutation();
  const [pending, setPending] = useState<Pending | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [readCalculation, calculation] = useMtdCalculationMutation();
  const fail = useFail();
  const toast = useToast();
  const [form] = Form.useForm<FormFigures>();
  const businesses = data.businesses.filter((b) => UPDATABLE.has(b.typeOfBusiness));
  const chosenId = Form.useWatch('businessId', form) as string | undefined;
  const chosen = businesses.find((b) => b.businessId === chosenId) ?? businesses[0];
  const isProperty = chosen?.typeOfBusiness === 'uk-property';
  const clearReview = () => {
    setPending(null);
    setConfirmed(false);
  };
  const onFinish = (v: FormFigures) => {
    const common = { businessId: v.businessId, taxYear: v.taxYear, periodEndDate: v.periodEndDate, device: deviceData() };
    if (isProperty) {
      const figures: MtdPropertyFigures = {
        ...common,
        income: entered<MtdPropertyIncome>(v.property?.income),
        expenses: entered<MtdPropertyExpense>(v.property?.expenses),
      };
      void reviewProperty({ clientId: data.clientId, realm, figures })
        .unwrap()
        .then((r) => setPending({ kind: 'uk-property', figures, body: r.body, reviewHash: r.reviewHash }), fail);
      return;
    }
    const figures: MtdUpdateFigures = {
      ...common,
      turnover: v.turnover ?? 0,
      other: v.other ?? 0,
      expenses: entered<MtdExpenseCategory>(v.expenses),
    };
    void review({ clientId: data.clientId, realm, figures })
      .unwrap()
      .then((r) => setPending({ kind: 'self-employment', figures, body: r.body, reviewHash: r.reviewHash }), fail);
  };
  const send = (p: Pending) =>
    (p.kind === 'uk-property'
      ? submitProperty({ clientId: data.clientId, realm, figures: p.figures, reviewHash: p.reviewHash })
      : submit({ clientId: data.clientId, realm, figures: p.figures, reviewHash: p.reviewHash })
    )
      .unwrap()
      .then(() => {
        toast.success(serverText('Quarterly update sent to HMRC'));
        clearReview();
      }, fail);
  return (
    <Card size="small" title="Quarterly update (cumulative, self-employment or UK property)">
      {businesses.length === 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title="Refresh the obligations from HMRC to see the client's businesses"
          description="Until then the figures can be read from the client's software and mapped, ready for the update."
        />
      )}
      <Form
        form={form}
        layout="vertical"
        aria-label="Quarterly update figures"
        initialValues={{ businessId: businesses[0]?.businessId, taxYear: '2026-27', periodEndDate: '2026-07-05', other: 0 }}
        onValuesChange={clearReview}
        onFinish={onFinish}
      >
        <Flex wrap gap={16}>
          {businesses.length > 0 && (
            <Form.Item name="businessId" label="Business">
              <Select
                style={{ width: 240 }}
                options={businesses.map((b) => ({
                  value: b.businessId,
                  label: `${b.tradingName ?? b.businessId} (${b.typeOfBusiness === 'uk-property' ? 'UK property' : 'self-employment'})`,
                }))}
              />
            </Form.Item>
          )}
          <Form.Item name="taxYear" label="Tax year">
            <Select style={{ width: 120 }} options={['2025-26', '2026-27', '2027-28'].map((y) => ({ value: y, label: y }))} />
          </Form.Item>
          <Form.Item
            name="periodEndDate"
            label="Period to (YYYY-MM-DD)"
            rules={[{ required: true, pattern: /^\d{4}-\d{2}-\d{2}$/, message: 'A date like 2026-07-05' }]}
          >
            <Input style={{ width: 140 }} />
          </Form.Item>
        </Flex>
        {!isProperty && (
          <LedgerPanel clientId={data.clientId} realm={realm} form={form} onFilled={clearReview} canFill={businesses.length > 0} />
        )}
        {businesses.length > 0 && isProperty && (
          <>
            <Typography.Text strong>Income (£, year to date)</Typography.Text>
            <Flex wrap gap={12}>
              {MTD_PROPERTY_INCOME.map((c) => (
                <Form.Item key={c} name={['property', 'income', c]} label={PROPERTY_INCOME_LABEL[c]}>
                  <InputNumber min={0} step={0.01} style={{ width: 200 }} />
                </Form.Item>
              ))}
            </Flex>
            <Typography.Text strong>Expenses (£, year to date)</Typography.Text>
            <Flex wrap gap={12}>
              {MTD_PROPERTY_EXPENSES.map((c) => (
                <Form.Item key={c} name={['property', 'expenses', c]} label={PROPERTY_EXPENSE_LABEL[c]}>
                  <InputNumber min={MTD_PROPERTY_NON_NEGATIVE.includes(c) ? 0 : undefined} step={0.01} style={{ width: 200 }} />
                </Form.Item>
              ))}
            </Flex>
          </>
        )}
        {businesses.length > 0 && !isProperty && (
          <>
            <Flex wrap gap={16}>
              <Form.Item name="turnover" label="Turnover (£, year to date)" rules={[{ required: true, message: 'Enter the turnover' }]}>
                <InputNumber min={0} step={0.01} style={{ width: 180 }} />
              </Form.Item>
              <Form.Item name="other" label="Other income (£)">
                <InputNumber min={0} step={0.01} style={{ width: 160 }} />
              </Form.Item>
            </Flex>
            <Flex wrap gap={12}>
              {MTD_EXPENSE_CATEGORIES.map((c) => (
                <Form.Item key={c} name={['expenses', c]} label={`${EXPENSE_LABEL[c]} (£)`}>
                  <InputNumber step={0.01} style={{ width: 170 }} />
                </Form.Item>
              ))}
            </Flex>
          </>
        )}
        {businesses.length > 0 && (
          <Button htmlType="submit" loading={reviewing.isLoading || reviewingProperty.isLoading}>
            Review what will be sent
          </Button>
        )}
      </Form>
      {pending && (
        <Card size="small" type="inner" title="Review: exactly what HMRC will receive" style={{ marginTop: 16 }}>
          <pre className="mtd-review" aria-label="Update to send">
            {JSON.stringify(pending.body, null, 2)}
          </pre>
          <Flex vertical gap={8}>
            <Checkbox checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)}>
              I confirm these figures are correct and complete for the period, and I want to send them to HMRC now
            </Checkbox>
            <Button
              type="primary"
              disabled={!confirmed}
              loading={submitting.isLoading || submittingProperty.isLoading}
              onClick={() => void send(pending)}
            >
              Send to HMRC
            </Button>
          </Flex>
        </Card>
      )}
      {data.submissions.length > 0 && (
        <Table
          style={{ marginTop: 16 }}
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ x: true }}
          dataSource={data.submissions}
          caption="Sent updates (receipts)"
          columns={[
            { title: 'Sent', render: (_v, s) => formatDateTime(s.submittedAt) },
            { title: 'Period', render: (_v, s) => `${s.taxYear} to ${formatDate(s.periodEndDate)}` },
            { title: 'HMRC answer', render: (_v, s) => `HTTP ${s.hmrcStatus}` },
            { title: 'Correlation id', dataIndex: 'correlationId', render: (v: string | null) => v ?? '—' },
            {
              title: 'Calculation',
              render: (_v, s) =>
                s.calculationId ? (
                  <Button
                    size="small"
                    onClick={() =>
                      void readCalculation({ clientId: data.clientId, realm, calculationId: s.calculationId!, device: deviceData() })
                        .unwrap()
                        .catch(fail)
                    }
                  >
                    Show calculation {s.calculationId.slice(0, 8)}
                  </Button>
                ) : (
                  'Not triggered'
                ),
            },
          ]}
        />
      )}
      {calculation.data && <CalculationFigures title="In-year calculation (HMRC)" c={calculation.data} id />}
    </Card>
  );
}

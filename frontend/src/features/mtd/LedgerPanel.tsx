import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Flex, Select, Table, Tag, Typography, type FormInstance } from 'antd';
import {
  formatDate,
  formatGBP,
  MTD_EXPENSE_CATEGORIES,
  MTD_LEDGER_CATEGORIES,
  type MtdLedgerAccount,
  type MtdLedgerBasis,
  type MtdLedgerCategory,
} from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useLazyMtdLedgerQuery, useSaveMtdLedgerMappingsMutation } from './api';
import { LEDGER_CATEGORY_LABEL } from './labels';

const CATEGORY_OPTIONS = MTD_LEDGER_CATEGORIES.map((c) => ({ value: c, label: LEDGER_CATEGORY_LABEL[c] }));
const BASIS_OPTIONS: Array<{ value: MtdLedgerBasis; label: string }> = [
  { value: 'cash', label: 'Cash basis (the default since 2024-25)' },
  { value: 'accruals', label: 'Accruals (the client elected it)' },
];
const PROVIDER_LABEL = { xero: 'Xero', quickbooks: 'QuickBooks' } as const;

/**
 * The quarterly update's figures from the client's own Xero or QuickBooks (issue 31, item 6): the profit
 * and loss from 6 April to the period's end, account by account, each mapped to one of HMRC's categories
 * (the practice keeps the mapping per client). "Use these figures" fills the update form; nothing is sent
 * until the figures have been reviewed and confirmed below.
 */
export function LedgerPanel({
  clientId,
  realm,
  form,
  onFilled,
  canFill,
}: {
  clientId: string;
  realm: AuthRealm;
  form: FormInstance;
  onFilled: () => void;
  /** False until HMRC's businesses are known: the figures can be read and mapped, not yet put in an update. */
  canFill: boolean;
}) {
  const [basis, setBasis] = useState<MtdLedgerBasis>('cash');
  const [load, ledger] = useLazyMtdLedgerQuery();
  const [save, saving] = useSaveMtdLedgerMappingsMutation();
  const [choices, setChoices] = useState<Record<string, MtdLedgerCategory>>({});
  const toast = useToast();
  const data = ledger.data;
  // A fresh answer (another period, a saved mapping) starts from what the server holds.
  useEffect(() => setChoices({}), [data]);
  const changed = useMemo(() => (data?.accounts ?? []).filter((a) => choices[a.key] && choices[a.key] !== a.category), [data, choices]);
  const unsaved = changed.length > 0 || (data?.unmapped ?? 0) > 0;

  const read = () => {
    const { taxYear, periodEndDate } = form.getFieldsValue(['taxYear', 'periodEndDate']) as { taxYear: string; periodEndDate: string };
    void load({ clientId, realm, taxYear, periodEndDate, basis });
  };
  const saveMapping = () => {
    if (!data) return;
    const mappings = data.accounts.map((a) => ({ key: a.key, name: a.name, category: choices[a.key] ?? a.category }));
    void save({ clientId, realm, mappings })
      .unwrap()
      .then(
        (r) => {
          toast.success(serverText(r.message));
          read();
        },
        (err: unknown) => toast.error(serverText(errorBody(err)?.message ?? 'The mapping could not be saved.')),
      );
  };
  const fillForm = () => {
    if (!data) return;
    form.setFieldsValue({
      turnover: Math.max(0, data.figures.turnover),
      other: Math.max(0, data.figures.other),
      expenses: Object.fromEntries(MTD_EXPENSE_CATEGORIES.map((c) => [c, data.figures.expenses[c] ?? null])),
    });
    onFilled();
    toast.info(serverText(`Figures taken from ${PROVIDER_LABEL[data.provider]}: check them, then review what will be sent.`));
  };

  const failure = ledger.isError ? (errorBody(ledger.error)?.message ?? 'The ledger could not be read.') : null;
  return (
    <section aria-label="Figures from the client's software" className="mtd-ledger">
      <Flex wrap gap={12} align="end">
        <label>
          <Typography.Text type="secondary">Basis</Typography.Text>
          <Select aria-label="Basis" value={basis} onChange={setBasis} options={BASIS_OPTIONS} style={{ display: 'block', width: 300 }} />
        </label>
        <Button onClick={read} loading={ledger.isFetching}>
          Take figures from Xero or QuickBooks
        </Button>
      </Flex>
      {failure && <Alert style={{ marginTop: 12 }} type="warning" showIcon title={failure} />}
      {data && !ledger.isError && (
        <>
          <Typography.Paragraph style={{ marginTop: 12 }}>
            {PROVIDER_LABEL[data.provider]}
            {data.organisation ? ` (${data.organisation})` : ''}: profit and loss from {formatDate(data.fromDate)} to{' '}
            {formatDate(data.toDate)}, {data.basis === 'cash' ? 'cash basis' : 'accruals'}.
          </Typography.Paragraph>
          <Table<MtdLedgerAccount>
            size="small"
            rowKey="key"
            pagination={false}
            scroll={{ x: true }}
            dataSource={data.accounts}
            caption="Accounts and where each goes"
            locale={{ emptyText: 'No income or costs in this period' }}
            columns={[
              { title: 'Code', dataIndex: 'code', render: (v: string | null) => v ?? '—' },
              { title: 'Account', dataIndex: 'name' },
              { title: 'Amount', dataIndex: 'amount', align: 'right', render: (v: number) => formatGBP(v) },
              {
                title: 'HMRC category',
                render: (_v, a) => (
                  <Flex gap={6} align="center">
                    <Select
                      aria-label={`Category for ${a.name}`}
                      value={choices[a.key] ?? a.category}
                      options={CATEGORY_OPTIONS}
                      showSearch={{ optionFilterProp: 'label' }}
                      onChange={(c: MtdLedgerCategory) => setChoices((m) => ({ ...m, [a.key]: c }))}
                      style={{ width: 260 }}
                    />
                    {!a.mapped && !choices[a.key] && <Tag color="gold">Suggested</Tag>}
                  </Flex>
                ),
              },
            ]}
          />
          <Flex wrap gap={8} style={{ marginTop: 12 }} align="center">
            <Button onClick={saveMapping} loading={saving.isLoading} disabled={!unsaved}>
              Save mapping
            </Button>
            {canFill && (
              <Button type="primary" onClick={fillForm} disabled={changed.length > 0}>
                Use these figures
              </Button>
            )}
            {changed.length > 0 && <Typography.Text type="secondary">Save the mapping to see its figures.</Typography.Text>}
            {changed.length === 0 && data.unmapped > 0 && (
              <Typography.Text type="secondary">
                {data.unmapped === 1 ? 'One account uses' : `${data.unmapped} accounts use`} a suggested category: check it and save the
                mapping.
              </Typography.Text>
            )}
          </Flex>
        </>
      )}
    </section>
  );
}

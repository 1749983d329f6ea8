import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Descriptions, Flex, Select, Table, Typography } from 'antd';
import { formatDateTime, formatGBP, londonDate, MTD_TEXTS, type MtdCalculationSummary, type MtdClient } from '@countinghouse/proto';
import type { AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useMtdCalculationMutation, useSubmitMtdFinalDeclarationMutation, useTriggerMtdFinalCalculationMutation } from './api';
import { deviceData } from './device';
import { useFail } from './use-fail';

/** HMRC's calculation, its headline figures (Individual Calculations 9.0): in-year and final alike. */
export function CalculationFigures({ title, c, id = false }: { title: string; c: MtdCalculationSummary; id?: boolean }) {
  const money = (v: number | null) => (v === null ? '—' : formatGBP(v));
  return (
    <Descriptions size="small" title={title} column={{ xs: 1, md: 2 }} style={{ marginTop: 16 }}>
      {id && <Descriptions.Item label="Calculation id">{c.calculationId}</Descriptions.Item>}
      <Descriptions.Item label="Calculated">{formatDateTime(c.calculationTimestamp)}</Descriptions.Item>
      <Descriptions.Item label="Income received">{money(c.totalIncomeReceived)}</Descriptions.Item>
      <Descriptions.Item label="Taxable income">{money(c.totalTaxableIncome)}</Descriptions.Item>
      <Descriptions.Item label="Income Tax and NICs due">{money(c.totalIncomeTaxAndNicsDue)}</Descriptions.Item>
    </Descriptions>
  );
}

/** Tax years that have ended by `today` (YYYY-MM-DD, London), newest first, from 2025-26 (cumulative MTD's first). */
export function endedTaxYears(today: string): string[] {
  const years: string[] = [];
  for (let start = 2025; `${start + 1}-04-05` < today; start++) years.unshift(`${start}-${String((start + 1) % 100).padStart(2, '0')}`);
  return years;
}

/**
 * The year's final declaration (issue 31; decision 677): HMRC's intent-to-finalise calculation, read and
 * shown to the client, then HMRC's agent declaration confirmed and sent. Only for people who may send
 * to HMRC (mtd.submit); everyone with MTD sees the receipts.
 */
export function FinalDeclaration({ data, realm, canSubmit }: { data: MtdClient; realm: AuthRealm; canSubmit: boolean }) {
  const years = endedTaxYears(londonDate(new Date()));
  const [taxYear, setTaxYear] = useState(years[0] ?? null);
  const [calculationId, setCalculationId] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [trigger, triggering] = useTriggerMtdFinalCalculationMutation();
  const [read, calculation] = useMtdCalculationMutation();
  const [declare, declaring] = useSubmitMtdFinalDeclarationMutation();
  const toast = useToast();
  const fail = useFail();
  const base = { clientId: data.clientId, realm };
  const declared = taxYear ? data.finalDeclarations.some((f) => f.taxYear === taxYear) : false;
  const shown = calculation.data && calculation.data.calculationId === calculationId;
  return (
    <Card size="small" title="Final declaration">
      {canSubmit && years.length === 0 && (
        <Typography.Paragraph type="secondary">
          A final declaration is made after the tax year ends (first: 2025-26, after 5 April 2026).
        </Typography.Paragraph>
      )}
      {canSubmit && taxYear && (
        <Flex vertical gap={12}>
          <Flex wrap gap={12} align="center">
            <label>
              Tax year{' '}
              <Select
                aria-label="Tax year to finalise"
                value={taxYear}
                onChange={(y: string) => {
                  setTaxYear(y);
                  setCalculationId(null);
                  setAgreed(false);
                }}
                options={years.map((y) => ({ value: y, label: y }))}
                style={{ width: 120 }}
              />
            </label>
            <Button
              disabled={declared}
              loading={triggering.isLoading}
              onClick={() =>
                void trigger({ ...base, taxYear, device: deviceData() })
                  .unwrap()
                  .then((r) => {
                    setCalculationId(r.calculationId);
                    setAgreed(false);
                    toast.info(serverText('HMRC is calculating. Show the calculation in a few seconds.'));
                  }, fail)
              }
            >
              Calculate final figures
            </Button>
            {calculationId && (
              <Button
                loading={calculation.isLoading}
                onClick={() =>
                  void read({ ...base, calculationId, device: deviceData() })
                    .unwrap()
                    .catch(fail)
                }
              >
                Show calculation
              </Button>
            )}
          </Flex>
          {declared && <Alert type="success" showIcon title={`The final declaration for ${taxYear} has been sent.`} />}
          {shown && calculation.data && (
            <>
              <CalculationFigures title={`HMRC's final calculation for ${taxYear}`} c={calculation.data} />
              <Typography.Paragraph>
                Send the client this calculation and what was filed for the year; declare once they approve it.
              </Typography.Paragraph>
              <Checkbox checked={agreed} onChange={(e) => setAgreed(e.target.checked)}>
                {MTD_TEXTS.finalDeclarationStatement}
              </Checkbox>
              <Button
                type="primary"
                disabled={!agreed || declared}
                loading={declaring.isLoading}
                onClick={() =>
                  void declare({ ...base, taxYear, calculationId: calculation.data!.calculationId, device: deviceData() })
                    .unwrap()
                    .then(() => {
                      toast.success(serverText(`Final declaration for ${taxYear} sent to HMRC`));
                      setCalculationId(null);
                      setAgreed(false);
                    }, fail)
                }
              >
                Submit final declaration
              </Button>
            </>
          )}
        </Flex>
      )}
      {data.finalDeclarations.length > 0 && (
        <Table
          style={{ marginTop: 16 }}
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ x: true }}
          dataSource={data.finalDeclarations}
          caption="Final declarations sent (receipts)"
          columns={[
            { title: 'Tax year', dataIndex: 'taxYear' },
            { title: 'Sent', render: (_v, f) => formatDateTime(f.submittedAt) },
            { title: 'HMRC answer', render: (_v, f) => `HTTP ${f.hmrcStatus}` },
            { title: 'Calculation', dataIndex: 'calculationId' },
            { title: 'Correlation id', dataIndex: 'correlationId', render: (v: string | null) => v ?? '—' },
          ]}
        />
      )}
      {!canSubmit && data.finalDeclarations.length === 0 && (
        <Typography.Paragraph type="secondary">No final declaration has been sent for this client.</Typography.Paragraph>
      )}
    </Card>
  );
}

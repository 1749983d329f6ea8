import { useState } from 'react';
import { Alert, Button, Card, DatePicker, Flex, Skeleton, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { formatDate, MESSAGES } from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { formattedText, useToast } from '../../shared/toast';
import { useSetTwoFactorPolicyMutation, useTwoFactorPolicyQuery } from './two-factor-api';

/**
 * The practice's rule (issue 32): from a date, every administrator, manager, member of staff,
 * accountant and MLRO must use two-factor sign-in; at their next sign-in those without it are led to
 * set it up before anything else. Administrators only (two_factor.policy).
 */
export function TwoFactorPolicyCard() {
  const policy = useTwoFactorPolicyQuery();
  const [save, saving] = useSetTwoFactorPolicyMutation();
  const [picked, setPicked] = useState<Dayjs | null | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const toast = useToast();
  const current = policy.data?.required_from ?? null;
  const value = picked === undefined ? (current ? dayjs(current) : null) : picked;

  async function submit(date: string | null) {
    setFailure(null);
    try {
      await save({ required_from: date }).unwrap();
      setPicked(undefined);
      toast.success(
        formattedText(
          date ? `Two-factor sign-in is required of staff from ${formatDate(date)}.` : 'Two-factor sign-in is optional for staff.',
        ),
        'two-factor-policy',
      );
    } catch (e) {
      setFailure(errorBody(e)?.message ?? MESSAGES.unexpectedError);
    }
  }

  return (
    <Card title="Two-factor sign-in for staff">
      {policy.isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : policy.isError ? (
        <Alert
          type="error"
          showIcon
          title="We could not load the two-factor rule"
          action={<Button onClick={() => void policy.refetch()}>Try again</Button>}
        />
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph className="two-factor-policy__text">
            {current
              ? `Required from ${formatDate(current)} of administrators (admin panel accounts too), managers, staff, accountants and MLROs. Anyone without it sets it up at their next sign-in before anything else.`
              : 'Optional: each person may turn it on from Account security. Choose a date to require it of administrators (admin panel accounts too), managers, staff, accountants and MLROs.'}
          </Typography.Paragraph>
          {failure && <Alert type="error" showIcon role="alert" title={failure} />}
          <Flex gap={8} wrap align="center">
            <label htmlFor="two-factor-required-from">Required from</label>
            <DatePicker id="two-factor-required-from" format="DD/MM/YYYY" value={value} onChange={(d) => setPicked(d)} allowClear />
            <Button
              type="primary"
              loading={saving.isLoading}
              disabled={!value}
              onClick={() => value && void submit(value.format('YYYY-MM-DD'))}
            >
              Require from this date
            </Button>
            {current && (
              <Button onClick={() => void submit(null)} disabled={saving.isLoading}>
                Make it optional
              </Button>
            )}
          </Flex>
        </Flex>
      )}
    </Card>
  );
}

import { useState } from 'react';
import { Alert, Button, Card, Flex, Input, InputNumber, Select, Skeleton, Typography } from 'antd';
import { JOB_KINDS, REVIEWER_ROLES, type JobStaffMember, type JobTemplate } from '@countinghouse/proto';
import { errorBody, type AuthRealm } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useChangeJobStaffMutation, useJobStaffQuery, useJobTemplatesQuery, useSaveJobTemplateMutation } from './client-jobs-api';

/** One member of staff's cost rate (£ an hour), weekly capacity (hours) and leave (days, one a line). */
function StaffRow({ m, realm }: { m: JobStaffMember; realm: AuthRealm }) {
  const [rate, setRate] = useState<number | null>(m.cost_rate_pence / 100);
  const [capacity, setCapacity] = useState<number | null>(m.weekly_capacity_minutes / 60);
  const [leave, setLeave] = useState(m.leave.join('\n'));
  const [save, saving] = useChangeJobStaffMutation();
  const toast = useToast();
  const submit = async () => {
    const days = leave
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean);
    const bad = days.find((d) => !/^\d{4}-\d{2}-\d{2}$/.test(d));
    if (bad) return toast.error(serverText(`Enter each day of leave as YYYY-MM-DD (not "${bad}")`));
    try {
      await save({
        userId: m.user_id,
        body: { cost_rate_pence: Math.round((rate ?? 0) * 100), weekly_capacity_minutes: Math.round((capacity ?? 0) * 60), leave: days },
        realm,
      }).unwrap();
      toast.success(serverText(`Saved for ${m.name}`));
    } catch (e) {
      toast.error(serverText(errorBody(e)?.message ?? 'Not saved'));
    }
  };
  return (
    <Card size="small" title={`${m.name}${m.role ? ` (${m.role})` : ''}`}>
      <Flex wrap gap={12} align="end">
        <label>
          Cost rate, £ an hour
          <InputNumber
            aria-label={`Cost rate of ${m.name}`}
            min={0}
            max={10000}
            precision={2}
            value={rate}
            onChange={setRate}
            style={{ display: 'block' }}
          />
        </label>
        <label>
          Weekly capacity, hours
          <InputNumber
            aria-label={`Weekly capacity of ${m.name}`}
            min={0}
            max={100}
            precision={1}
            value={capacity}
            onChange={setCapacity}
            style={{ display: 'block' }}
          />
        </label>
        <label>
          Leave (YYYY-MM-DD, one a line)
          <Input.TextArea
            aria-label={`Leave of ${m.name}`}
            value={leave}
            onChange={(e) => setLeave(e.target.value)}
            autoSize={{ minRows: 1, maxRows: 6 }}
            style={{ width: 200 }}
          />
        </label>
        <Button onClick={() => void submit()} loading={saving.isLoading}>
          Save
        </Button>
      </Flex>
    </Card>
  );
}

/** Staff cost rates, capacity and leave (client_jobs.settings). */
export function StaffSettings({ realm }: { realm: AuthRealm }) {
  const staff = useJobStaffQuery({ realm });
  if (staff.isError) return <Alert type="error" showIcon title="The staff could not be loaded" />;
  return (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">
        Cost rates price the time recorded (profitability); capacity less leave is what the capacity view compares with.
      </Typography.Text>
      {staff.data?.staff.length === 0 && (
        <Typography.Text>No staff yet: people appear here once they hold a staff-side role.</Typography.Text>
      )}
      {staff.data?.staff.map((m) => (
        <StaffRow key={m.user_id} m={m} realm={realm} />
      ))}
    </Flex>
  );
}

/** Stages as text: one stage a line, its checklist after a colon, items separated by semicolons. */
const stagesToText = (t: JobTemplate) =>
  t.stages.map((s) => (s.checklist.length ? `${s.name}: ${s.checklist.join('; ')}` : s.name)).join('\n');
const textToStages = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [name = '', items = ''] = l.split(/:(.*)/s);
      return {
        name: name.trim(),
        checklist: items
          .split(';')
          .map((i) => i.trim())
          .filter(Boolean),
      };
    });

function TemplateCard({ t, realm }: { t: JobTemplate; realm: AuthRealm }) {
  const [stages, setStages] = useState(stagesToText(t));
  const [budget, setBudget] = useState<number | null>(t.budget_minutes / 60);
  const [reviewer, setReviewer] = useState(t.reviewer_role);
  const [lead, setLead] = useState<number | null>(t.lead_days);
  const [target, setTarget] = useState<number | null>(t.target_days_before);
  const [save, saving] = useSaveJobTemplateMutation();
  const toast = useToast();
  const submit = async () => {
    try {
      const r = await save({
        kind: t.kind,
        body: {
          stages: textToStages(stages),
          budget_minutes: Math.round((budget ?? 0) * 60),
          reviewer_role: reviewer,
          lead_days: lead ?? 1,
          target_days_before: target ?? 0,
        },
        realm,
      }).unwrap();
      toast.success(serverText(r.message));
    } catch (e) {
      toast.error(serverText(errorBody(e)?.message ?? 'Not saved'));
    }
  };
  return (
    <Card size="small" title={t.name}>
      <Flex vertical gap={8}>
        <label>
          Stages (one a line; checklist after a colon, items separated by semicolons; the last stage is Filed)
          <Input.TextArea
            aria-label={`Stages of ${t.name}`}
            value={stages}
            onChange={(e) => setStages(e.target.value)}
            autoSize={{ minRows: 3, maxRows: 12 }}
          />
        </label>
        <Flex wrap gap={12} align="end">
          <label>
            Budget, hours
            <InputNumber
              aria-label={`Budget of ${t.name}`}
              min={0}
              max={1000}
              precision={1}
              value={budget}
              onChange={setBudget}
              style={{ display: 'block' }}
            />
          </label>
          <label>
            Reviewer role
            <Select
              aria-label={`Reviewer role of ${t.name}`}
              value={reviewer}
              onChange={setReviewer}
              options={REVIEWER_ROLES.map((r) => ({ value: r, label: r }))}
              style={{ display: 'block', minWidth: 140 }}
            />
          </label>
          <label>
            Opens, days before
            <InputNumber
              aria-label={`Lead days of ${t.name}`}
              min={1}
              max={365}
              precision={0}
              value={lead}
              onChange={setLead}
              style={{ display: 'block' }}
            />
          </label>
          <label>
            Internal target, days before
            <InputNumber
              aria-label={`Target days of ${t.name}`}
              min={0}
              max={120}
              precision={0}
              value={target}
              onChange={setTarget}
              style={{ display: 'block' }}
            />
          </label>
          <Button onClick={() => void submit()} loading={saving.isLoading}>
            Save template
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}

/** The job templates of every kind (client_jobs.settings). */
export function TemplateSettings({ realm }: { realm: AuthRealm }) {
  const list = useJobTemplatesQuery({ realm });
  if (list.isError) return <Alert type="error" showIcon title="The templates could not be loaded" />;
  const byKind = new Map((list.data?.templates ?? []).map((t) => [t.kind, t]));
  return (
    <Flex vertical gap={12}>
      {list.isLoading && <Skeleton active />}
      {JOB_KINDS.map((k) => byKind.get(k.value)).map((t) => t && <TemplateCard key={t.kind} t={t} realm={realm} />)}
    </Flex>
  );
}

import { MESSAGES, formatGBP } from '@countinghouse/proto';
import { useCrmStatsQuery } from './api';
import { StatCards } from './components/StatCards';
import { formatCount } from './format';
import { useErrorToast } from './use-error-toast';
import './crm.css';

/** The Admin Control Panel's four cards (spec: titles and notes word for word). */
export function ControlPanelStats() {
  const stats = useCrmStatsQuery();
  useErrorToast(stats.isError, MESSAGES.failedToLoadClientData);
  const s = stats.isError ? null : stats.data;
  const value = (pick: (d: NonNullable<typeof s>) => string) => (s === undefined ? undefined : s && pick(s));
  return (
    <StatCards
      headingLevel={2}
      items={[
        { title: 'Total Clients', note: 'Registered businesses', value: value((d) => formatCount(d.total_clients)) },
        { title: 'Team Members', note: 'Active staff', value: value((d) => formatCount(d.team_members)) },
        { title: 'Monthly Revenue', note: 'Recurring income', value: value((d) => formatGBP(d.monthly_revenue)) },
        { title: 'Active Plans', note: 'Paying clients', value: value((d) => formatCount(d.active_plans)) },
      ]}
    />
  );
}

/** The staff portal's three cards. */
export function StaffStats() {
  const stats = useCrmStatsQuery({ realm: 'user' });
  useErrorToast(stats.isError, MESSAGES.failedToLoadClientData);
  const s = stats.isError ? null : stats.data;
  const value = (pick: (d: NonNullable<typeof s>) => string) => (s === undefined ? undefined : s && pick(s));
  return (
    <StatCards
      items={[
        { title: 'Total Clients', value: value((d) => formatCount(d.total_clients)) },
        { title: 'Active Clients', value: value((d) => formatCount(d.active_clients)) },
        { title: 'Monthly Revenue', value: value((d) => formatGBP(d.monthly_revenue)) },
      ]}
    />
  );
}

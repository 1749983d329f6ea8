import { MESSAGES, MONTHLY_REVENUE_LABEL, MONTHLY_REVENUE_NOTE, formatGBP } from '@countinghouse/proto';
import { useCrmStatsQuery, useMonthlyRevenueQuery } from './api';
import { StatCards } from './components/StatCards';
import { formatCount } from '@countinghouse/proto';
import { useErrorToast } from './use-error-toast';
import './crm.css';

/** The Admin Control Panel's four cards (spec: titles and notes word for word). */
export function ControlPanelStats() {
  const stats = useCrmStatsQuery();
  const revenue = useMonthlyRevenueQuery();
  useErrorToast(stats.isError, MESSAGES.failedToLoadClientData);
  const s = stats.isError ? null : stats.data;
  const value = (pick: (d: NonNullable<typeof s>) => string) => (s === undefined ? undefined : s && pick(s));
  return (
    <StatCards
      headingLevel={2}
      items={[
        { title: 'Total Clients', note: 'Registered businesses', value: value((d) => formatCount(d.total_clients)) },
        { title: 'Team Members', note: 'Active staff', value: value((d) => formatCount(d.team_members)) },
        { title: MONTHLY_REVENUE_LABEL, note: MONTHLY_REVENUE_NOTE, value: revenueValue(revenue) },
        { title: 'Active Plans', note: 'Paying clients', value: value((d) => formatCount(d.active_plans)) },
      ]}
    />
  );
}

/** The staff portal's three cards. */
export function StaffStats() {
  const stats = useCrmStatsQuery({ realm: 'user' });
  const revenue = useMonthlyRevenueQuery({ realm: 'user' });
  useErrorToast(stats.isError, MESSAGES.failedToLoadClientData);
  const s = stats.isError ? null : stats.data;
  const value = (pick: (d: NonNullable<typeof s>) => string) => (s === undefined ? undefined : s && pick(s));
  return (
    <StatCards
      items={[
        { title: 'Total Clients', value: value((d) => formatCount(d.total_clients)) },
        { title: 'Active Clients', value: value((d) => formatCount(d.active_clients)) },
        { title: MONTHLY_REVENUE_LABEL, value: revenueValue(revenue) },
      ]}
    />
  );
}

/** The monthly revenue card's value: billing's one figure (undefined while loading, null if it failed). */
export function revenueValue(q: ReturnType<typeof useMonthlyRevenueQuery>): string | null | undefined {
  if (q.isError) return null;
  return q.data === undefined ? undefined : formatGBP(q.data.monthly_revenue);
}

import type { LeadsBySource, LeadsByStage } from '@countinghouse/proto';
import { STAGE_LABELS } from '../crm/labels';
import { csvPercent } from './csv';
import { useLeadsReportQuery } from './api';
import { BarChart, FunnelChart, Legend } from './charts';
import { Headline, ReportCard } from './shared/ReportCard';
import { csvOf, ReportTable, type Column } from './shared/ReportTable';
import { count, percent, reportQueryOptions, sourceLabel, STAGE_COLOURS, type ReportProps } from './shared/labels';

const EMPTY = 'No leads in this range';
const SOURCE_SERIES = [
  { key: 'leads', label: 'Leads', color: '#91caff' },
  { key: 'won', label: 'Won', color: '#52c41a' },
];

const sourceColumns: Column<LeadsBySource>[] = [
  { title: 'Source', show: (r) => sourceLabel(r.source), csv: (r) => sourceLabel(r.source) },
  { title: 'Leads', show: (r) => count(r.leads), csv: (r) => r.leads, numeric: true },
  { title: 'Won', show: (r) => count(r.won), csv: (r) => r.won, numeric: true },
  { title: 'Lost', show: (r) => count(r.lost), csv: (r) => r.lost, numeric: true },
  { title: 'Open', show: (r) => count(r.open), csv: (r) => r.open, numeric: true },
  {
    title: 'Conversion',
    csvTitle: 'Conversion (%)',
    show: (r) => percent(r.conversion_rate),
    csv: (r) => csvPercent(r.conversion_rate),
    numeric: true,
  },
];

export function NewLeadsHeadline({ range, skip }: ReportProps) {
  const leads = useLeadsReportQuery(range, reportQueryOptions(skip));
  return (
    <Headline
      title="New leads"
      loading={leads.isLoading || !leads.data}
      value={count(leads.data?.total ?? 0)}
      note={leads.data && `${percent(leads.data.conversion_rate)} won`}
    />
  );
}

/** The lead funnel: leads of the range by stage, in pipeline order (crm). */
export function LeadFunnelReport({ range, skip }: ReportProps) {
  const leads = useLeadsReportQuery(range, reportQueryOptions(skip));
  const total = leads.data?.total ?? 0;
  const stages = leads.data?.by_stage ?? [];
  const share = (r: LeadsByStage) => (total ? r.leads / total : 0);
  const columns: Column<LeadsByStage>[] = [
    { title: 'Stage', show: (r) => STAGE_LABELS[r.stage], csv: (r) => STAGE_LABELS[r.stage] },
    { title: 'Leads', show: (r) => count(r.leads), csv: (r) => r.leads, numeric: true },
    {
      title: 'Share of leads',
      csvTitle: 'Share of leads (%)',
      show: (r) => percent(share(r)),
      csv: (r) => csvPercent(share(r)),
      numeric: true,
    },
  ];
  return (
    <ReportCard
      title="Lead funnel by stage"
      query={leads}
      isEmpty={total === 0}
      emptyText={EMPTY}
      csv={{ label: 'Lead funnel by stage', name: 'lead-funnel', range, build: () => csvOf(columns, stages) }}
    >
      <FunnelChart
        total={total}
        width={420}
        steps={stages.map((s) => ({ key: s.stage, label: STAGE_LABELS[s.stage], value: s.leads, color: STAGE_COLOURS[s.stage]! }))}
        ariaLabel={`Leads by stage, in pipeline order: ${stages.map((s) => `${STAGE_LABELS[s.stage]} ${s.leads}`).join(', ')}`}
      />
      <ReportTable label="Lead funnel by stage" rows={stages} columns={columns} rowKey={(r) => r.stage} />
    </ReportCard>
  );
}

/** Leads of the range by source, with how many were won (crm). */
export function LeadSourcesReport({ range, skip }: ReportProps) {
  const leads = useLeadsReportQuery(range, reportQueryOptions(skip));
  const sources = leads.data?.by_source ?? [];
  return (
    <ReportCard
      title="Leads by source"
      query={leads}
      isEmpty={(leads.data?.total ?? 0) === 0}
      emptyText={EMPTY}
      csv={{ label: 'Leads by source', name: 'leads-by-source', range, build: () => csvOf(sourceColumns, sources) }}
    >
      <BarChart
        categories={sources.map((s) => sourceLabel(s.source))}
        series={SOURCE_SERIES.map((x) => ({ ...x, values: sources.map((s) => (x.key === 'won' ? s.won : s.leads)) }))}
        integer
        width={420}
        formatValue={count}
        ariaLabel={`Leads by source with conversion: ${sources.map((s) => `${sourceLabel(s.source)} ${s.leads} leads, ${s.won} won (${percent(s.conversion_rate)})`).join(', ')}`}
      />
      <Legend items={SOURCE_SERIES} />
      <ReportTable label="Leads by source" rows={sources} columns={sourceColumns} rowKey={(r) => r.source ?? '(none)'} />
    </ReportCard>
  );
}

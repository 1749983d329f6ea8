import { Button, Card, Flex, Select, Tag, Tooltip, Typography } from 'antd';
import { EditOutlined, MailOutlined, ShopOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { formatDate, formatGBP, type Lead, type LeadStage } from '@countinghouse/proto';
import { BUSINESS_TYPE_LABELS } from '@countinghouse/proto';
import { STAGE_OPTIONS } from '../labels';
import { StageBadge } from './StatusBadge';

interface Props {
  lead: Lead;
  onStageChange: (lead: Lead, stage: LeadStage) => void;
  onEdit: (lead: Lead) => void;
  onConvert: (lead: Lead) => void;
  /** The lead whose stage is being saved. */
  isSaving?: boolean;
}

/** One lead in the Client Management grid (spec: every field of the lead card, plus stage and convert). */
export function LeadCard({ lead, onStageChange, onEdit, onConvert, isSaving }: Props) {
  const converted = lead.converted_client_id !== null;
  return (
    <Card size="small" className="crm-card" role="article" aria-label={lead.name}>
      <Flex justify="space-between" align="start" gap={8}>
        <div className="crm-card__main">
          <h3 className="crm-card__title">{lead.name}</h3>
          {lead.email && (
            <Typography.Text type="secondary" className="crm-card__line">
              <MailOutlined aria-hidden="true" /> {lead.email}
            </Typography.Text>
          )}
          {lead.company_name && (
            <Typography.Text type="secondary" className="crm-card__line">
              <ShopOutlined aria-hidden="true" /> {lead.company_name}
            </Typography.Text>
          )}
        </div>
        <Tooltip title="Edit lead">
          <Button size="small" icon={<EditOutlined />} aria-label={`Edit ${lead.name}`} onClick={() => onEdit(lead)} />
        </Tooltip>
      </Flex>
      <Flex wrap gap={8} align="center" className="crm-card__badges">
        <StageBadge stage={lead.stage} />
        {lead.business_type && <Tag className="crm-badge">{BUSINESS_TYPE_LABELS[lead.business_type]}</Tag>}
        {converted && (
          <Tag color="green" className="crm-badge">
            Client
          </Tag>
        )}
      </Flex>
      <dl className="crm-card__facts">
        {lead.quote_amount !== null && (
          <div>
            <dt>Quote</dt>
            <dd>{formatGBP(lead.quote_amount)}</dd>
          </div>
        )}
        <div>
          <dt>Created</dt>
          <dd>{formatDate(lead.created_at)}</dd>
        </div>
        {lead.source && (
          <div>
            <dt>Source</dt>
            <dd>{lead.source}</dd>
          </div>
        )}
      </dl>
      <Flex gap={8} align="center" wrap className="crm-card__actions">
        <Select<LeadStage>
          size="small"
          value={lead.stage}
          options={STAGE_OPTIONS}
          onChange={(stage) => onStageChange(lead, stage)}
          aria-label={`Stage of ${lead.name}`}
          loading={isSaving}
          disabled={isSaving || converted}
          popupMatchSelectWidth={false}
          className="crm-card__stage"
        />
        {lead.stage === 'won' && !converted && (
          <Button size="small" type="primary" icon={<UserSwitchOutlined />} onClick={() => onConvert(lead)}>
            Convert to client
          </Button>
        )}
      </Flex>
    </Card>
  );
}

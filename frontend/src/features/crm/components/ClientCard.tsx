import { Button, Card, Flex, Tag, Tooltip, Typography } from 'antd';
import { EditOutlined, FolderOpenOutlined, MailOutlined, PhoneOutlined } from '@ant-design/icons';
import { formatDate, formatGBP, type Client } from '@countinghouse/proto';
import { ClientStatusBadge } from './StatusBadge';

interface Props {
  client: Client;
  onDocs: (client: Client) => void;
  onEdit: (client: Client) => void;
}

/** One client in the Client Management grid (spec: every field of the client card). */
export function ClientCard({ client, onDocs, onEdit }: Props) {
  return (
    <Card size="small" className="crm-card" role="article" aria-label={client.company_name}>
      <Flex justify="space-between" align="start" gap={8}>
        <div className="crm-card__main">
          <h3 className="crm-card__title">{client.company_name}</h3>
          <Typography.Text type="secondary" className="crm-card__line">
            <MailOutlined aria-hidden="true" /> {client.contact_email}
          </Typography.Text>
          {client.contact_phone && (
            <Typography.Text type="secondary" className="crm-card__line">
              <PhoneOutlined aria-hidden="true" /> {client.contact_phone}
            </Typography.Text>
          )}
        </div>
        <Flex gap={4}>
          <Button size="small" icon={<FolderOpenOutlined />} onClick={() => onDocs(client)}>
            Docs
          </Button>
          <Tooltip title="Edit client">
            <Button size="small" icon={<EditOutlined />} aria-label={`Edit ${client.company_name}`} onClick={() => onEdit(client)} />
          </Tooltip>
        </Flex>
      </Flex>
      <Flex wrap gap={8} align="center" className="crm-card__badges">
        <ClientStatusBadge status={client.subscription_status} />
        {client.package_name && (
          <Tag color="geekblue" className="crm-badge">
            {client.package_name}
          </Tag>
        )}
      </Flex>
      <dl className="crm-card__facts">
        <div>
          <dt>Monthly fee</dt>
          <dd>{formatGBP(client.monthly_fee)}/month</dd>
        </div>
        <div>
          <dt>Employees</dt>
          <dd>{client.employees_count}</dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>{formatDate(client.registration_date)}</dd>
        </div>
      </dl>
    </Card>
  );
}

import { useState } from 'react';
import { Button, Col, DatePicker, Flex, Form, Row, Select, Tag, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import {
  COMMUNICATION_CHANNELS,
  COMMUNICATION_DIRECTIONS,
  formatDateTime,
  type Communication,
  type CommunicationChannel,
  type CommunicationDirection,
} from '@countinghouse/proto';
import { useCommunicationsQuery, useCreateCommunicationMutation } from './api';
import { NotesItem, RequiredClientItem, RequiredSelectItem, TextItem } from './components/FormFields';
import { FormModal, useFormFailure } from './components/FormModal';
import { SearchBox, unlessAll } from './components/ListToolbar';
import { PagedTable } from './components/PagedTable';
import { usePaging } from './components/paging';
import { humanise } from './labels';
import { useDebounced } from '../../shared/use-debounced';
import './crm.css';

const LOAD_FAILED = 'Failed to load communications';
const CHANNEL_LABELS: Record<CommunicationChannel, string> = {
  email: 'Email',
  phone: 'Phone',
  meeting: 'Meeting',
  letter: 'Letter',
  portal: 'Portal',
};
const CHANNEL_OPTIONS = COMMUNICATION_CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABELS[c] }));
const DIRECTION_OPTIONS = COMMUNICATION_DIRECTIONS.map((d) => ({ value: d, label: humanise(d) }));

export function CommunicationsWorkspace() {
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput.trim(), 300);
  const [channel, setChannel] = useState<'all' | CommunicationChannel>('all');
  const [direction, setDirection] = useState<'all' | CommunicationDirection>('all');
  const paging = usePaging();
  const { page, pageSize, andFirstPage } = paging;
  const [logging, setLogging] = useState(false);
  const list = useCommunicationsQuery({ search, channel: unlessAll(channel), direction: unlessAll(direction), page, page_size: pageSize });

  const columns: TableColumnsType<Communication> = [
    { title: 'When', dataIndex: 'occurred_at', render: (d: string) => formatDateTime(d) },
    { title: 'Client', dataIndex: 'client_company_name', render: (c: string) => <Typography.Text strong>{c}</Typography.Text> },
    { title: 'Channel', dataIndex: 'channel', render: (c: CommunicationChannel) => <Tag>{CHANNEL_LABELS[c]}</Tag> },
    {
      title: 'Direction',
      dataIndex: 'direction',
      render: (d: CommunicationDirection) => <Tag color={d === 'inbound' ? 'cyan' : 'purple'}>{humanise(d)}</Tag>,
    },
    {
      title: 'Subject',
      dataIndex: 'subject',
      render: (_: unknown, c) => (
        <div>
          <div>{c.subject}</div>
          {c.body && (
            <Typography.Text type="secondary" ellipsis={{ tooltip: c.body }} style={{ maxWidth: 360 }}>
              {c.body}
            </Typography.Text>
          )}
        </div>
      ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} justify="space-between">
        <Flex wrap gap={8} role="search" aria-label="Filter communications" className="crm-toolbar">
          <SearchBox
            value={searchInput}
            onChange={andFirstPage(setSearchInput)}
            placeholder="Search by subject..."
            label="Search communications"
          />
          <Select
            value={channel}
            onChange={andFirstPage(setChannel)}
            options={[{ value: 'all', label: 'All Channels' }, ...CHANNEL_OPTIONS]}
            aria-label="Channel filter"
            className="crm-toolbar__select"
          />
          <Select
            value={direction}
            onChange={andFirstPage(setDirection)}
            options={[{ value: 'all', label: 'Both directions' }, ...DIRECTION_OPTIONS]}
            aria-label="Direction filter"
            className="crm-toolbar__select"
          />
        </Flex>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setLogging(true)}>
          Log communication
        </Button>
      </Flex>
      <PagedTable<Communication>
        list={list}
        rows={list.data?.communications}
        total={list.data?.total ?? 0}
        columns={columns}
        paging={paging}
        loadFailed={LOAD_FAILED}
        emptyText={
          search || channel !== 'all' || direction !== 'all' ? 'No communications match these filters' : 'No communications logged yet'
        }
      />
      {logging && <LogCommunicationModal open onClose={() => setLogging(false)} />}
    </Flex>
  );
}

interface LogValues {
  client_id: string;
  channel: CommunicationChannel;
  direction: CommunicationDirection;
  subject: string;
  body?: string;
  occurred_at?: Dayjs | null;
}

function LogCommunicationModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<LogValues>();
  const [create, { isLoading }] = useCreateCommunicationMutation();
  const { failure, attempt } = useFormFailure();

  async function onFinish(values: LogValues) {
    await attempt(async () => {
      await create({
        client_id: values.client_id,
        channel: values.channel,
        direction: values.direction,
        subject: values.subject.trim(),
        body: values.body?.trim() || null,
        ...(values.occurred_at ? { occurred_at: values.occurred_at.toISOString() } : {}),
      }).unwrap();
      form.resetFields();
      onClose();
    });
  }

  return (
    <FormModal
      open={open}
      title="Log communication"
      okText="Log communication"
      form={form}
      onClose={onClose}
      confirmLoading={isLoading}
      width={640}
      failure={failure}
    >
      <Form<LogValues>
        form={form}
        layout="vertical"
        name="log-communication"
        onFinish={onFinish}
        initialValues={{ channel: 'email', direction: 'outbound' }}
      >
        <RequiredClientItem />
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <RequiredSelectItem label="Channel" name="channel" options={CHANNEL_OPTIONS} />
          </Col>
          <Col xs={24} md={8}>
            <RequiredSelectItem label="Direction" name="direction" options={DIRECTION_OPTIONS} />
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label="When" name="occurred_at" extra="Leave empty for now">
              <DatePicker showTime={{ format: 'HH:mm' }} format="DD/MM/YYYY HH:mm" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <TextItem label="Subject" name="subject" requiredMessage="Please enter a subject" max={300} />
        <NotesItem label="Notes" name="body" max={20000} rows={4} />
      </Form>
    </FormModal>
  );
}

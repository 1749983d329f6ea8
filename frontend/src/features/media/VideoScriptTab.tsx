import { useEffect, useState } from 'react';
import { Alert, Button, Card, Flex, Input, Progress, Radio, Table, Tag, Typography } from 'antd';
import { VideoCameraOutlined } from '@ant-design/icons';
import { skipToken } from '@reduxjs/toolkit/query/react';
import {
  formatDateTime,
  MAX_CUSTOM_PROMPT_CHARS,
  MESSAGES,
  VIDEO_TYPES,
  type ScriptStatus,
  type ScriptSummary,
  type VideoType,
} from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useGenerateVideoScriptMutation, useVideoScriptGeneratorQuery, useVideoScriptQuery, useVideoScriptsQuery } from './api';
import { ScriptResult } from './ScriptResult';
import './media.css';

/** The UI asks for the job's status this often until it is done. */
const POLL_MS = 1000;
const PAGE_SIZE = 5;

const STATUS_TAGS: Record<ScriptStatus, { colour: string; label: string }> = {
  queued: { colour: 'default', label: 'Queued' },
  running: { colour: 'processing', label: 'Generating' },
  completed: { colour: 'success', label: 'Ready' },
  failed: { colour: 'error', label: 'Failed' },
};

const typeLabel = (type: VideoType) => VIDEO_TYPES.find((t) => t.value === type)?.label ?? type;

/** An error with no HTTP answer (offline, gateway down) versus one the server explained. */
function isNetworkError(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR' || status === 'PARSING_ERROR';
}

/** The admin panel's AI Video tab: choose a kind of video, generate its script, reopen earlier ones. */
export function VideoScriptTab() {
  const toast = useToast();
  const [type, setType] = useState<VideoType>('company_overview');
  const [description, setDescription] = useState('');
  const [activeId, setActiveId] = useState<string | null>(null);
  /** The script this person just asked for: poll it and toast when it is done. */
  const [watching, setWatching] = useState(false);
  const [page, setPage] = useState(1);

  const [generate, { isLoading: isStarting }] = useGenerateVideoScriptMutation();
  const generatorInfo = useVideoScriptGeneratorQuery();
  const [unfinished, setUnfinished] = useState(false);
  // Poll every second while the script is queued or running (ours, or a reopened one still in progress).
  const active = useVideoScriptQuery(activeId ?? skipToken, { pollingInterval: watching || unfinished ? POLL_MS : 0 });
  const earlier = useVideoScriptsQuery({ page, page_size: PAGE_SIZE });

  const record = active.data && active.data.id === activeId ? active.data : undefined;
  const isDone = record?.status === 'completed' || record?.status === 'failed';
  const isWorking = isStarting || (watching && !isDone);
  useEffect(() => setUnfinished(Boolean(record) && !isDone), [record, isDone]);
  const needsDescription = type === 'custom' && description.trim() === '';

  useEffect(() => {
    if (!watching) return;
    if (record?.status === 'completed') {
      setWatching(false);
      toast.success(MESSAGES.videoScriptGenerated);
    } else if (record?.status === 'failed') {
      setWatching(false);
      toast.notifyError(MESSAGES.failedToGenerateVideoScript, serverText(record.error ?? MESSAGES.unexpectedError));
    }
  }, [watching, record?.status, record?.error, toast]);

  useEffect(() => {
    if (watching && active.isError) {
      setWatching(false);
      if (isNetworkError(active.error)) toast.error(MESSAGES.unexpectedError, 'media-poll');
      else
        toast.notifyError(MESSAGES.failedToGenerateVideoScript, serverText(errorBody(active.error)?.message ?? MESSAGES.unexpectedError));
    }
  }, [watching, active.isError, active.error, toast]);

  const onGenerate = async () => {
    try {
      const created = await generate({
        // The spec's generate-video sends null for a custom video.
        type: type === 'custom' ? null : type,
        customPrompt: type === 'custom' ? description.trim() : null,
      }).unwrap();
      setActiveId(created.id);
      setWatching(true);
    } catch (err) {
      const message = errorBody(err)?.message;
      if (isNetworkError(err) || !message) toast.error(MESSAGES.unexpectedError);
      else toast.notifyError(MESSAGES.failedToGenerateVideoScript, serverText(message));
    }
  };

  const reopen = (id: string) => {
    setWatching(false);
    setActiveId(id);
  };

  return (
    <Flex vertical gap={24} className="media-tab">
      <div>
        <Typography.Title level={2} style={{ marginTop: 0 }}>
          AI Video Script Generator
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          Choose the kind of marketing video and generate a script with timed scenes, narration and on-screen text, written from the
          practice&apos;s own details, packages and prices.
        </Typography.Paragraph>
        {generatorInfo.data?.generator === 'template' && (
          <Alert
            type="info"
            showIcon
            title="No AI provider is configured, so scripts are written by the built-in template generator from the practice's details."
          />
        )}
      </div>

      <Card title={<h3 style={{ margin: 0, fontSize: 16 }}>Video type</h3>}>
        <Flex vertical gap={16}>
          <Radio.Group
            className="media-options"
            optionType="button"
            buttonStyle="solid"
            value={type}
            onChange={(e) => setType(e.target.value as VideoType)}
            disabled={isWorking}
            aria-label="Video type"
            options={VIDEO_TYPES.map((t) => ({ value: t.value, label: `${t.label} (${t.length})` }))}
          />
          {type === 'custom' && (
            <div>
              <label htmlFor="media-custom-description">
                <Typography.Text strong>Describe your video</Typography.Text>
              </label>
              <Input.TextArea
                id="media-custom-description"
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                placeholder="For example: a 45-second video for new landlords explaining how we help with Making Tax Digital"
                autoSize={{ minRows: 3, maxRows: 8 }}
                maxLength={MAX_CUSTOM_PROMPT_CHARS}
                showCount
                disabled={isWorking}
              />
            </div>
          )}
          <div>
            <Button
              type="primary"
              size="large"
              icon={<VideoCameraOutlined />}
              onClick={() => void onGenerate()}
              disabled={needsDescription || isWorking}
            >
              {isWorking ? 'Generating Video Script...' : 'Generate Video Script'}
            </Button>
          </div>
          {(isWorking || (record && !isDone)) && (
            <Progress
              percent={record?.progress ?? 0}
              status="active"
              aria-label="Script generation progress"
              format={(p) => `${p ?? 0}%`}
            />
          )}
        </Flex>
      </Card>

      {record?.status === 'completed' && record.script && (
        <Card>
          <ScriptResult record={record} />
        </Card>
      )}
      {record?.status === 'failed' && !watching && (
        <Alert type="error" showIcon title={MESSAGES.failedToGenerateVideoScript} description={record.error ?? undefined} />
      )}

      <Card title={<h3 style={{ margin: 0, fontSize: 16 }}>Earlier scripts</h3>}>
        <Table<ScriptSummary>
          size="small"
          rowKey="id"
          loading={earlier.isFetching && !earlier.data}
          dataSource={earlier.data?.scripts ?? []}
          locale={{ emptyText: earlier.isError ? MESSAGES.unexpectedError : 'No scripts yet' }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: earlier.data?.total ?? 0,
            onChange: setPage,
            showSizeChanger: false,
            hideOnSinglePage: true,
          }}
          scroll={{ x: 640 }}
          tableLayout="auto"
          columns={[
            { title: 'Created', dataIndex: 'created_at', width: 150, render: (v: string) => formatDateTime(v) },
            { title: 'Type', dataIndex: 'type', width: 150, render: (v: VideoType) => typeLabel(v) },
            {
              title: 'Title',
              key: 'title',
              render: (_: unknown, s) => s.title ?? s.prompt ?? '-',
              ellipsis: true,
            },
            {
              title: 'Length',
              dataIndex: 'total_seconds',
              width: 90,
              render: (v: number | null) => (v ? `${v} s` : '-'),
            },
            {
              title: 'Status',
              dataIndex: 'status',
              width: 110,
              render: (v: ScriptStatus) => <Tag color={STATUS_TAGS[v].colour}>{STATUS_TAGS[v].label}</Tag>,
            },
            {
              title: '',
              key: 'open',
              fixed: 'right' as const,
              width: 90,
              render: (_: unknown, s) => (
                <Button
                  size="small"
                  onClick={() => reopen(s.id)}
                  disabled={s.id === activeId}
                  aria-label={`Open ${s.title ?? typeLabel(s.type)}`}
                >
                  Open
                </Button>
              ),
            },
          ]}
        />
      </Card>
    </Flex>
  );
}

export default VideoScriptTab;

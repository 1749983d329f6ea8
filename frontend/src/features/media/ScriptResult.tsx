import { Alert, Button, Card, Flex, Table, Tag, Tooltip, Typography } from 'antd';
import { DownloadOutlined, ShareAltOutlined } from '@ant-design/icons';
import { formatSeconds, MESSAGES, VIDEO_TYPES, type Scene, type ScriptRecord } from '@countinghouse/proto';
import { useToast } from '../../shared/toast';
import { NEXT_STEPS } from './next-steps';
import { downloadTextFile, scriptFileName, shareText } from './script-file';

const SEGMENT_COLOURS = ['#1677ff', '#13c2c2', '#52c41a', '#faad14', '#eb2f96', '#722ed1', '#fa541c'];

/** A completed script: timeline, scenes, Download, Share and the Next Steps list. */
export function ScriptResult({ record }: { record: ScriptRecord }) {
  const toast = useToast();
  const script = record.script!;
  const text = record.text ?? '';
  const typeLabel = VIDEO_TYPES.find((t) => t.value === record.type)?.label ?? record.type;

  const onDownload = () => {
    try {
      downloadTextFile(scriptFileName(record), text);
      toast.success(MESSAGES.scriptDownloaded);
    } catch {
      toast.error(MESSAGES.unexpectedError);
    }
  };

  const onShare = async () => {
    try {
      const outcome = await shareText(script.title, text);
      if (outcome === 'copied') toast.success(MESSAGES.scriptCopied);
    } catch {
      toast.error(MESSAGES.unexpectedError);
    }
  };

  return (
    <Flex vertical gap={16} className="media-result" data-testid="script-result">
      <Flex wrap justify="space-between" align="start" gap={12}>
        <div>
          <Typography.Title level={3} className="media-result__title">
            {script.title}
          </Typography.Title>
          <Flex wrap gap={4}>
            <Tag color="blue">{typeLabel}</Tag>
            <Tag>
              {script.total_seconds} seconds ({formatSeconds(script.total_seconds)})
            </Tag>
            <Tag>{script.scenes.length} scenes</Tag>
          </Flex>
        </div>
        <Flex gap={8} wrap>
          <Button icon={<DownloadOutlined />} onClick={onDownload}>
            Download
          </Button>
          <Button icon={<ShareAltOutlined />} onClick={() => void onShare()}>
            Share
          </Button>
        </Flex>
      </Flex>

      {record.generator === 'template' ? (
        <Alert
          type="info"
          showIcon
          title="Written by the built-in template generator because no AI provider is configured."
          description="It uses the practice's own details, packages and prices. Set OPENAI_API_KEY to have an AI model write scripts."
        />
      ) : (
        <Alert type="success" showIcon title={`Written by the AI model ${record.model ?? ''}. Check facts and prices before you record.`} />
      )}

      <Timeline scenes={script.scenes} total={script.total_seconds} />

      <Table<Scene & { n: number }>
        size="small"
        pagination={false}
        rowKey="n"
        dataSource={script.scenes.map((s, i) => ({ ...s, n: i + 1 }))}
        scroll={{ x: 720 }}
        columns={[
          { title: '#', dataIndex: 'n', width: 48 },
          {
            title: 'Time',
            key: 'time',
            width: 110,
            render: (_: unknown, s) => `${formatSeconds(s.start_second)} - ${formatSeconds(s.end_second)}`,
          },
          { title: 'Narration', dataIndex: 'narration' },
          { title: 'On-screen text', dataIndex: 'on_screen_text', width: 200 },
          { title: 'Visual', dataIndex: 'visual', width: 240 },
        ]}
      />

      <Card size="small" title={<h4 className="media-result__steps-title">Next Steps</h4>}>
        <ol className="media-result__steps">
          {NEXT_STEPS.map((step) => (
            <li key={step.title}>
              <Typography.Text strong>{step.title}.</Typography.Text> {step.text}
            </li>
          ))}
        </ol>
      </Card>
    </Flex>
  );
}

/** Scenes as proportional blocks along the video's length. */
function Timeline({ scenes, total }: { scenes: Scene[]; total: number }) {
  return (
    <div className="media-timeline" role="img" aria-label={`Timeline: ${scenes.length} scenes over ${total} seconds`}>
      {scenes.map((s, i) => (
        <Tooltip key={i} title={`Scene ${i + 1}: ${formatSeconds(s.start_second)} - ${formatSeconds(s.end_second)}`}>
          <div
            className="media-timeline__segment"
            style={{
              flexGrow: s.end_second - s.start_second,
              background: SEGMENT_COLOURS[i % SEGMENT_COLOURS.length],
            }}
          >
            {i + 1}
          </div>
        </Tooltip>
      ))}
    </div>
  );
}

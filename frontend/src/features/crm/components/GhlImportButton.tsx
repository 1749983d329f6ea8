import { Button, Tooltip, Typography } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import { GHL_MESSAGES, MESSAGES } from '@countinghouse/proto';
import { useGhlConfigQuery, useGhlImportMutation } from '../api';
import { formattedText, useToast } from '../../../shared/toast';
import { useCrmRealm } from '../realm';

const GHL_BUTTON_TEXT = 'Import from GoHighLevel';
const NOT_CONFIGURED_ID = 'ghl-not-configured';

/**
 * Imports the external CRM's contacts as leads (the spec's fetch-ghl-leads). When the server has no
 * GoHighLevel key the button is disabled and says why, instead of failing on click.
 */
export function GhlImportButton({ size }: { size?: 'small' | 'middle' }) {
  const realm = useCrmRealm();
  const config = useGhlConfigQuery({ realm });
  const [runImport, { isLoading }] = useGhlImportMutation();
  const toast = useToast();
  const notConfigured = config.data?.configured === false;
  const explanation = config.data?.message ?? GHL_MESSAGES.notConfigured;

  async function onClick() {
    try {
      const result = await runImport({ realm }).unwrap();
      toast.success(formattedText(MESSAGES.loadedLeads(result.total)), 'ghl-import');
    } catch {
      toast.error(MESSAGES.failedToFetchLeadsFromGhl, 'ghl-import');
    }
  }

  const button = (
    <Button
      size={size}
      icon={<CloudDownloadOutlined />}
      onClick={() => void onClick()}
      loading={isLoading}
      disabled={notConfigured || config.isLoading}
      aria-describedby={notConfigured ? NOT_CONFIGURED_ID : undefined}
    >
      {GHL_BUTTON_TEXT}
    </Button>
  );
  if (!notConfigured) return button;
  return (
    <span className="crm-ghl">
      <Tooltip title={explanation}>
        {/* A disabled button gets no pointer events; the wrapper keeps the tooltip reachable. */}
        <span className="crm-ghl__wrap">{button}</span>
      </Tooltip>
      <Typography.Text id={NOT_CONFIGURED_ID} type="secondary" className="crm-ghl__note">
        External CRM not configured on this server
      </Typography.Text>
    </span>
  );
}

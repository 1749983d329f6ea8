import { Flex, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../shared/use-page-title';
import { AmlWorkspace } from './AmlWorkspace';

/** /admin/aml: every client's anti-money-laundering due diligence (MLR 2017). */
export function AmlPage() {
  usePageTitle('AML due diligence');
  // Links from the control panel (?status=outstanding) and notifications (?status=review_due&client_id=…).
  const [params] = useSearchParams();
  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={1}>AML due diligence</Typography.Title>
        {/* (inside the paragraph, the link is underlined: not told apart by colour alone, WCAG 1.4.1) */}
        <Typography.Paragraph type="secondary">
          Identity of each client and its owners, the risk assessment and the MLRO’s sign-off (Money Laundering Regulations 2017).{' '}
          <Link to="/admin/identity-verification">Identity verification with Companies House</Link>
        </Typography.Paragraph>
      </div>
      <AmlWorkspace initialStatus={params.get('status') ?? undefined} openClientId={params.get('client_id') ?? undefined} />
    </Flex>
  );
}

export default AmlPage;

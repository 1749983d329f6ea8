import { Flex, Typography } from 'antd';
import { usePageTitle } from '../../shared/use-page-title';
import { AmlWorkspace } from './AmlWorkspace';

/** /admin/aml: every client's anti-money-laundering due diligence (MLR 2017). */
export function AmlPage() {
  usePageTitle('AML due diligence');
  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={1}>AML due diligence</Typography.Title>
        <Typography.Text type="secondary">
          Identity of each client and its owners, the risk assessment and the MLRO’s sign-off (Money Laundering Regulations 2017).
        </Typography.Text>
      </div>
      <AmlWorkspace />
    </Flex>
  );
}

export default AmlPage;

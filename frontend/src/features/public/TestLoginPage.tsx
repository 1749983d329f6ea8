import { Button, Flex, Typography } from 'antd';
import { useNavigate } from 'react-router-dom';
import { NotFound } from '../status-pages/NotFound';
import { usePageTitle } from '../../shared/use-page-title';
import { usePublicConfig } from './api';

/** A helper for testers, only in demo mode; elsewhere the route does not exist. */
export function TestLoginPage() {
  const { demoMode } = usePublicConfig();
  return demoMode ? <TestLoginButtons /> : <NotFound embedded />;
}

function TestLoginButtons() {
  usePageTitle('Login testing');
  const navigate = useNavigate();
  return (
    <Flex vertical align="center" gap={16}>
      <Typography.Title level={1}>Login testing</Typography.Title>
      <Flex wrap gap={12} justify="center">
        <Button type="primary" onClick={() => navigate('/signup')}>
          Sign up
        </Button>
        <Button onClick={() => navigate('/login')}>Log in</Button>
        <Button onClick={() => navigate('/user-management')}>User management</Button>
      </Flex>
    </Flex>
  );
}

export default TestLoginPage;

import { Button, Card, Col, Flex, Row, Typography } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { LIMITS, SESSION } from '@countinghouse/proto';
import { selectAdminUser } from '../../app/admin-session';
import { useAppSelector } from '../../app/store';
import { useAdminLogout } from '../admin-auth/use-admin-logout';
import { ButtonLink } from '../../shared/ButtonLink';
import { usePageTitle } from '../../shared/use-page-title';
import { AdminStaffManagement } from './AdminStaffManagement';
import { AiVideoTab } from '../media';
import { ClientManagement, ControlPanelStats } from '../crm';
import { ClientDocumentsView } from '../documents';
import { AwaitingSignatureCard } from '../engagement/AwaitingSignatureCard';
import './dashboard.css';
import { ResponsiveTabs } from '../../shared/ResponsiveTabs';
import { AmlOutstandingCard } from '../aml/AmlOutstandingCard';
import { StatusBadge } from '../../shared/StatusBadge';

/** Shown wherever a later issue will put real data: never a made-up number. */

const SETTINGS_BLOCKS = [
  {
    title: 'Platform Settings',
    text:
      'The practice name and contact details shown on the public site, maintenance mode, and the ' +
      'packages and monthly fees (in pounds sterling) offered to new clients.',
  },
  {
    title: 'Security & Access',
    text:
      'Who can sign in to the back office and with which role: admin, manager, staff or accountant. ' +
      `Staff join by invitation (valid for ${LIMITS.invitationDays} days), admin sessions end after ` +
      `${SESSION.adminSessionHours} hours, and signing out revokes the session on the server.`,
  },
  {
    title: 'Billing & Payments',
    text:
      'Monthly subscriptions are collected by card through Stripe, in GBP. A client becomes active ' +
      'once a payment is confirmed; missed payments show as overdue.',
  },
] as const;

function SettingsTab() {
  return (
    <Row gutter={[16, 16]}>
      {SETTINGS_BLOCKS.map((block) => (
        <Col key={block.title} xs={24} md={8}>
          <Card title={<h3 className="admin-dashboard__card-title">{block.title}</h3>}>
            <Typography.Paragraph>{block.text}</Typography.Paragraph>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

const TABS = [
  { key: 'staff', label: 'Staff Management', children: <AdminStaffManagement /> },
  { key: 'clients', label: 'Client Database', children: <ClientManagement /> },
  { key: 'files', label: 'Client Files', children: <ClientDocumentsView realm="admin" /> },
  { key: 'video', label: 'AI Video', children: <AiVideoTab /> },
  { key: 'settings', label: 'Settings', children: <SettingsTab /> },
];

/** The admin control panel at /admin and /admin/dashboard. */
export function DashboardPage() {
  usePageTitle('Admin Control Panel');
  const user = useAppSelector(selectAdminUser);
  const { signOut, isSigningOut } = useAdminLogout();

  return (
    <Flex vertical gap={24}>
      <Flex wrap justify="space-between" align="center" gap={16}>
        <div>
          <Typography.Title level={1} className="admin-dashboard__title">
            Admin Control Panel
          </Typography.Title>
          <Flex align="center" gap={8} wrap>
            <Typography.Text>Welcome back, {user?.username}</Typography.Text>
            {user && <StatusBadge status={user.role} className="admin-dashboard__role" />}
          </Flex>
        </div>
        {/* The spec's Logout button stays (spec: the control panel has one); beside it, the day's work (issue 26). */}
        <Flex gap={8} wrap>
          <ButtonLink to="/admin/work" type="primary">
            My work
          </ButtonLink>
          <Button icon={<LogoutOutlined />} onClick={() => void signOut()} loading={isSigningOut}>
            Logout
          </Button>
        </Flex>
      </Flex>

      <ControlPanelStats />
      <AmlOutstandingCard />
      <AwaitingSignatureCard />

      <Card>
        <ResponsiveTabs items={TABS} defaultActiveKey="staff" label="Section" />
      </Card>
    </Flex>
  );
}

export default DashboardPage;

import { formatCount } from '@countinghouse/proto';
import type { MenuProps } from 'antd';
import { Badge, Drawer, Layout, Menu } from 'antd';
import {
  AccountBookOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  CalendarOutlined,
  CheckSquareOutlined,
  DashboardOutlined,
  FileTextOutlined,
  LogoutOutlined,
  MessageOutlined,
  PoundOutlined,
  ProjectOutlined,
  RiseOutlined,
  SafetyOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TeamOutlined,
  UserAddOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useSidebarBadges } from '../../../features/crm/sidebar-badges';

interface NavEntry {
  path: string;
  label: string;
  icon: ReactNode;
}

/** The sidebar's entries, in the spec's order and wording (section 2). */
export const ADMIN_NAV: readonly NavEntry[] = [
  { path: '/admin', label: 'Dashboard', icon: <DashboardOutlined /> },
  { path: '/admin/clients', label: 'Clients', icon: <UserOutlined /> },
  { path: '/admin/leads', label: 'Leads', icon: <UserAddOutlined /> },
  { path: '/admin/staff', label: 'Staff', icon: <TeamOutlined /> },
  { path: '/admin/upgrades', label: 'Upgrades', icon: <RiseOutlined /> },
  { path: '/admin/tasks', label: 'Tasks', icon: <CheckSquareOutlined /> },
  { path: '/admin/deadlines', label: 'Deadlines', icon: <CalendarOutlined /> },
  { path: '/admin/client-jobs', label: 'Jobs', icon: <ProjectOutlined /> },
  { path: '/admin/mtd', label: 'MTD', icon: <AccountBookOutlined /> },
  { path: '/admin/aml', label: 'AML', icon: <SafetyCertificateOutlined /> },
  { path: '/admin/documents', label: 'Documents', icon: <FileTextOutlined /> },
  { path: '/admin/communications', label: 'Communications', icon: <MessageOutlined /> },
  { path: '/admin/billing', label: 'Billing', icon: <PoundOutlined /> },
  { path: '/admin/reports', label: 'Reports', icon: <BarChartOutlined /> },
];
export const ADMIN_SETTINGS_NAV: readonly NavEntry[] = [
  { path: '/admin/settings', label: 'Company Settings', icon: <SettingOutlined /> },
  { path: '/admin/jobs', label: 'Background Jobs', icon: <ScheduleOutlined /> },
  { path: '/admin/roles', label: 'User Roles', icon: <SafetyOutlined /> },
  { path: '/admin/notifications', label: 'Notifications', icon: <BellOutlined /> },
  { path: '/admin/audit', label: 'Audit and records', icon: <AuditOutlined /> },
];

type Badges = Partial<Record<string, number>>;

/** An entry; with a count (crm's sidebar badges) the number sits after the link. */
const toItem = ({ path, label, icon }: NavEntry, badges: Badges = {}) => {
  const count = badges[path];
  const link = <Link to={path}>{label}</Link>;
  return {
    key: path,
    icon,
    label:
      count === undefined ? (
        link
      ) : (
        <span className="admin-layout__nav-label">
          {link}
          <Badge
            count={formatCount(count)}
            overflowCount={Number.MAX_SAFE_INTEGER}
            showZero
            color="#5f6b7a"
            className="admin-layout__nav-badge"
          />
        </span>
      ),
  };
};

const navItems = (badges: Badges): MenuProps['items'] => [
  ...ADMIN_NAV.map((entry) => toItem(entry, badges)),
  { type: 'group', key: 'settings', label: 'Settings', children: ADMIN_SETTINGS_NAV.map((entry) => toItem(entry)) },
];

/** Pages without an entry of their own, under the entry that leads to them. */
const REACHED_FROM: Readonly<Record<string, string>> = {
  '/admin/dashboard': '/admin',
  '/admin/work': '/admin',
  '/admin/identity-verification': '/admin/aml',
};

/** The entry to mark for a page: its own, the one that leads to it, or none (account security). */
function selectedKey(pathname: string): string {
  if (pathname === '/admin' || pathname === '/admin/') return '/admin';
  const all = [...ADMIN_NAV, ...ADMIN_SETTINGS_NAV];
  const own = all.find((e) => e.path !== '/admin' && (pathname === e.path || pathname.startsWith(`${e.path}/`)));
  return own?.path ?? Object.entries(REACHED_FROM).find(([page]) => pathname.startsWith(page))?.[1] ?? '';
}

export const SIDER_ID = 'admin-sider';

interface Props {
  collapsed: boolean;
  isMobile: boolean;
  onSignOut: () => void;
  /** Called after a choice (the phone drawer closes on navigation). */
  onNavigate?: () => void;
}

/** The brand, the sections and Sign Out: inside the sider on a desktop, the drawer on a phone. */
export function AdminNav({ collapsed, onSignOut, onNavigate }: Omit<Props, 'isMobile'>) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const badges = useSidebarBadges();

  // The labels are links (middle-click, copy link); this handles keyboard activation of the item.
  const onNavClick: MenuProps['onClick'] = ({ key, domEvent }) => {
    if (!(domEvent.target instanceof Element && domEvent.target.closest('a'))) navigate(key);
    onNavigate?.();
  };

  return (
    <>
      <div className="admin-layout__brand">{collapsed ? 'CH' : 'Countinghouse Admin'}</div>
      <nav aria-label="Admin" className="admin-layout__nav">
        <Menu mode="inline" items={navItems(badges)} selectedKeys={[selectedKey(pathname)]} onClick={onNavClick} />
        <Menu
          mode="inline"
          selectable={false}
          className="admin-layout__signout"
          items={[{ key: 'sign-out', icon: <LogoutOutlined />, label: 'Sign Out', danger: true }]}
          onClick={onSignOut}
        />
      </nav>
    </>
  );
}

/**
 * Desktop: a sider beside the page (collapsible to icons). Phone (below 768 px): a slide-over drawer
 * over the page, closed by a choice, Escape or a tap outside (issue 22), so the page keeps the width.
 */
export function AdminSidebar({ collapsed, isMobile, onSignOut, onNavigate }: Props) {
  if (isMobile)
    return (
      <Drawer
        id={SIDER_ID}
        placement="left"
        open={!collapsed}
        onClose={onNavigate}
        size={272}
        title="Menu"
        className="admin-layout__drawer"
        styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column' } }}
      >
        <AdminNav collapsed={false} onSignOut={onSignOut} onNavigate={onNavigate} />
      </Drawer>
    );
  return (
    <Layout.Sider
      id={SIDER_ID}
      width="16rem"
      collapsed={collapsed}
      collapsedWidth={80}
      trigger={null}
      theme="light"
      className="admin-layout__sider"
    >
      <AdminNav collapsed={collapsed} onSignOut={onSignOut} />
    </Layout.Sider>
  );
}

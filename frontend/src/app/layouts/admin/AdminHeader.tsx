import { Avatar, Button, Layout } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { ADMIN_ACCOUNT_SECURITY_PATH } from '../../../features/admin-auth/paths';
import type { AdminUser } from '@countinghouse/proto';
import { SIDER_ID } from './AdminSidebar';
import { HeaderSearch } from '../../../features/crm/HeaderSearch';
import { NotificationBell } from '../../../features/notifications';
import { ChangePasswordButton } from '../../../features/auth/ChangePasswordButton';
import { StatusBadge } from '../../../shared/StatusBadge';

interface Props {
  user: AdminUser | null;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
}

export function AdminHeader({ user, sidebarOpen, onToggleSidebar }: Props) {
  return (
    <Layout.Header className="admin-layout__header">
      <Button
        type="text"
        icon={sidebarOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={onToggleSidebar}
        aria-label={sidebarOpen ? 'Collapse sidebar' : 'Expand sidebar'}
        aria-expanded={sidebarOpen}
        aria-controls={SIDER_ID}
      />
      <div role="search" className="admin-layout__search">
        {/* Clients, leads and tasks in groups; choosing one opens it (crm). */}
        <HeaderSearch />
      </div>
      <div className="admin-layout__user">
        {/* The real unread count (the spec's fixed 3 is overridden by issue 9; docs/decisions.md). */}
        <NotificationBell />
        {user && (
          <>
            <span className="admin-layout__identity">
              <span className="admin-layout__username">{user.username}</span>
              <StatusBadge status={user.role} className="admin-layout__role" />
            </span>
            <Avatar aria-hidden="true" className="admin-layout__avatar">
              {user.username.charAt(0).toUpperCase()}
            </Avatar>
            {/* The account's own two-factor sign-in (issue 32). */}
            <Link
              to={ADMIN_ACCOUNT_SECURITY_PATH}
              className="admin-layout__security"
              aria-label="Account security"
              title="Account security"
            >
              <SafetyCertificateOutlined aria-hidden="true" />
              <span className="admin-layout__security-text">Account security</span>
            </Link>
            <ChangePasswordButton realm="admin" />
          </>
        )}
      </div>
    </Layout.Header>
  );
}

import { Avatar, Button, Layout } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import type { AdminUser } from '@countinghouse/proto';
import { SIDER_ID } from './AdminSidebar';
import { HeaderSearch } from '../../../features/crm';
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
            <ChangePasswordButton realm="admin" />
          </>
        )}
      </div>
    </Layout.Header>
  );
}

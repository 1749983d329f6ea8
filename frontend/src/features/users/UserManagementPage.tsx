import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Col, Flex, Input, Result, Row, Statistic, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useNavigate } from 'react-router-dom';
import { formatDate, MESSAGES, type UserRow } from '@countinghouse/proto';
import { httpStatus } from '../../app/api';
import { useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { ROLE_LABELS } from '../staff/roles';
import { useUsersQuery } from './api';
import { LockoutsCard } from './LockoutsCard';
import './users.css';

const USERS_PAGE_SIZE = 20;
const NO_USERS_TEXT = 'No users registered yet';

const STATUS_COLOURS: Record<UserRow['status'], string> = { active: 'green', inactive: 'default', locked: 'red' };

const columns: ColumnsType<UserRow> = [
  { title: 'Name', dataIndex: 'name', key: 'name' },
  { title: 'Email', dataIndex: 'email', key: 'email' },
  { title: 'Company', dataIndex: 'company_name', key: 'company', render: (v: string | null) => v || '—' },
  { title: 'Role', dataIndex: 'role', key: 'role', render: (v: UserRow['role']) => ROLE_LABELS[v] },
  {
    title: 'Status',
    dataIndex: 'status',
    key: 'status',
    render: (v: UserRow['status']) => <Tag color={STATUS_COLOURS[v]}>{v}</Tag>,
  },
  { title: 'Registered', dataIndex: 'created_at', key: 'registered', render: (v: string) => formatDate(v) },
];

/**
 * The user list at /user-management. The spec leaves it public; it lists personal data, so the
 * server answers administrators only (an admin panel session, or a person with the admin role).
 */
export function UserManagementPage() {
  usePageTitle('User management');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const users = useUsersQuery({ page, page_size: USERS_PAGE_SIZE, search: search || undefined }, { refetchOnMountOrArgChange: true });
  const navigate = useNavigate();
  const toast = useToast();

  const status = users.isError ? httpStatus(users.error) : undefined;
  const signedOut = status === 401;
  const forbidden = status === 403;
  const failed = users.isError && !signedOut && !forbidden;

  const left = useRef(false);
  useEffect(() => {
    if (signedOut && !left.current) {
      left.current = true;
      toast.error(MESSAGES.pleaseLogInAdmin, 'admin-session');
      navigate('/admin/login', { replace: true });
    }
  }, [signedOut, navigate, toast]);

  useEffect(() => {
    if (failed) toast.error(MESSAGES.failedToLoadUsers, 'users');
  }, [failed, toast]);

  if (forbidden) {
    return (
      <Result
        status="403"
        title={MESSAGES.noAccessToArea}
        subTitle="The user list is for administrators of the practice."
        extra={
          <Flex gap={16} justify="center" wrap>
            <Link to="/admin/login">Admin login</Link>
            <Link to="/">{MESSAGES.returnToHome}</Link>
          </Flex>
        }
      />
    );
  }

  const stats = users.data?.stats;
  const statCards = [
    { title: 'Total Users', value: stats?.total_users },
    { title: 'Active Clients', value: stats?.active_clients },
    { title: 'New This Month', value: stats?.new_this_month },
  ];

  return (
    <Flex vertical gap={24} className="user-management">
      <div>
        <Typography.Title level={1} className="user-management__title">
          User Management
        </Typography.Title>
        <Typography.Text type="secondary">Everyone registered: clients and staff.</Typography.Text>
      </div>

      <Row gutter={[16, 16]}>
        {statCards.map((card) => (
          <Col key={card.title} xs={24} sm={8}>
            <Card>
              <Statistic
                title={<h2 className="user-management__card-title">{card.title}</h2>}
                value={card.value ?? '—'}
                loading={users.isLoading}
              />
            </Card>
          </Col>
        ))}
      </Row>

      <Alert
        type="info"
        showIcon
        title="Passwords are encrypted and cannot be shown"
        description="Passwords are stored only as one-way hashes, so nobody (not even an administrator) can read them. A user who forgets theirs needs a new account or a new invitation."
      />

      {failed && (
        <Alert
          type="error"
          showIcon
          title={MESSAGES.failedToLoadUsers}
          action={
            <Button size="small" onClick={() => void users.refetch()}>
              Try again
            </Button>
          }
        />
      )}

      <Card
        title={<h2 className="user-management__card-title">Registered users</h2>}
        extra={
          <Input.Search
            allowClear
            placeholder="Search name, e-mail or company"
            aria-label="Search users"
            onSearch={(value) => {
              setPage(1);
              setSearch(value.trim());
            }}
            className="user-management__search"
          />
        }
      >
        <Table<UserRow>
          rowKey="user_id"
          columns={columns}
          dataSource={users.data?.users ?? []}
          loading={users.isFetching}
          locale={{ emptyText: NO_USERS_TEXT }}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page,
            pageSize: USERS_PAGE_SIZE,
            total: users.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
        />
      </Card>

      {users.isSuccess && <LockoutsCard />}

      <Card title={<h2 className="user-management__card-title">How to test login</h2>}>
        <ol className="user-management__guide">
          <li>
            Create a client account at <Link to="/signup">/signup</Link>: you are told &lsquo;{MESSAGES.accountCreated}&rsquo;.
          </li>
          <li>
            Sign in with it at <Link to="/login">/login</Link>; it opens the client dashboard.
          </li>
          <li>
            For a staff account, invite the person from Staff Management (admin panel or staff portal), open the copied link, complete
            registration, then sign in at <Link to="/staff-login">/staff-login</Link>.
          </li>
          <li>Come back here: the new user is listed with their role, status and registration date.</li>
          <li>
            Wrong passwords show &lsquo;{MESSAGES.loginFailedTitle}&rsquo;; repeated failures delay further attempts from other addresses
            (listed under Sign-in delays above).
          </li>
        </ol>
      </Card>
    </Flex>
  );
}

export default UserManagementPage;

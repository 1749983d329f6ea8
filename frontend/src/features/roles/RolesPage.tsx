import { formatCount } from '@countinghouse/proto';
import { useDebounced } from '../../shared/use-debounced';
import { CheckOutlined, MinusOutlined } from '@ant-design/icons';
import {
  formatDate,
  MESSAGES,
  PERMISSION_AREAS,
  PERMISSIONS,
  ROLE_DESCRIPTIONS,
  ROLES,
  type Role,
  type RoleHolder,
  type RoleSummary,
} from '@countinghouse/proto';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Form,
  Popconfirm,
  Result,
  Row,
  Select,
  Skeleton,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState, type HTMLAttributes } from 'react';
import { errorBody, httpStatus } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { ROLE_LABELS, RoleTag } from '../staff/roles';
import {
  useDeactivateAdminAccountMutation,
  useGrantRoleMutation,
  useResetAdminAccountTwoFactorMutation,
  useRevokeRoleMutation,
  useRolePeopleQuery,
  useRolesQuery,
} from './api';
import { selectAdminUser } from '../../app/admin-session';
import { useAppSelector } from '../../app/store';
import { TwoFactorPolicyCard } from '../auth/TwoFactorPolicyCard';
import './roles.css';

const NO_HOLDERS_TEXT = 'No one holds this role';
const HOLDERS_PAGE_SIZE = 8;

/** The server's message for a refused change (e.g. the last administrator), or a generic one. */
function useFailureToast() {
  const toast = useToast();
  return (error: unknown) => {
    const body = errorBody(error);
    toast.error(body ? serverText(body.message) : MESSAGES.internalError, 'roles-change');
  };
}

/** /admin/roles: what each role may do (proto's permissions table, the one the services enforce) and who holds it. */
export function RolesPage() {
  usePageTitle('User Roles');
  const roles = useRolesQuery(undefined, { refetchOnMountOrArgChange: true });
  const toast = useToast();
  const status = roles.isError ? httpStatus(roles.error) : undefined;
  const failed = roles.isError && status !== 403 && status !== 401;

  useEffect(() => {
    if (failed) toast.error(MESSAGES.failedToLoadRoles, 'roles-load');
  }, [failed, toast]);

  if (status === 403)
    return <Result status="403" title={MESSAGES.noAccessToArea} subTitle="User roles are for administrators of the practice." />;

  return (
    <Flex vertical gap={16} className="roles-page">
      <Typography.Title level={1} className="admin-section__title">
        User Roles
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="roles-page__intro">
        What each role may do is the same table the services enforce. A change takes effect at once: someone whose role is revoked is signed
        out and signs in again with what is left.
      </Typography.Paragraph>
      <PermissionMatrix />
      <TwoFactorPolicyCard />
      <GrantForm />
      {failed && <Alert type="error" showIcon title={MESSAGES.failedToLoadRoles} />}
      <Row gutter={[16, 16]}>
        {ROLES.map((role) => (
          <Col key={role} xs={24} lg={12}>
            <HoldersCard role={role} summary={roles.data?.roles.find((r) => r.role === role)} loading={roles.isLoading} />
          </Col>
        ))}
      </Row>
    </Flex>
  );
}

/** Rows: the permissions grouped by area; columns: the five roles. Straight from proto's table. */
function PermissionMatrix() {
  return (
    <Card title="What each role may do" className="roles-matrix">
      <div className="roles-matrix__scroll" data-scroll-region aria-label="What each role may do" role="region" tabIndex={0}>
        <table className="roles-matrix__table" aria-label="Permissions by role">
          <thead>
            <tr>
              <th scope="col">Permission</th>
              {ROLES.map((role) => (
                <th scope="col" key={role}>
                  <Tooltip title={ROLE_DESCRIPTIONS[role]}>
                    <span>{ROLE_LABELS[role]}</span>
                  </Tooltip>
                </th>
              ))}
            </tr>
          </thead>
          {PERMISSION_AREAS.map((area) => {
            const rows = PERMISSIONS.filter((p) => p.area === area);
            if (rows.length === 0) return null;
            return (
              <tbody key={area}>
                <tr className="roles-matrix__area">
                  <th scope="colgroup" colSpan={ROLES.length + 1}>
                    {area}
                  </th>
                </tr>
                {rows.map((p) => (
                  <tr key={p.key} data-permission={p.key}>
                    <th scope="row">
                      {p.label}
                      {'note' in p && <div className="roles-matrix__note">{p.note}</div>}
                    </th>
                    {ROLES.map((role) => {
                      const allowed = (p.roles as readonly Role[]).includes(role);
                      return (
                        <td key={role} className={allowed ? 'roles-matrix__yes' : 'roles-matrix__no'}>
                          {allowed ? (
                            <CheckOutlined aria-label={`${ROLE_LABELS[role]}: allowed`} />
                          ) : (
                            <MinusOutlined aria-label={`${ROLE_LABELS[role]}: not allowed`} />
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            );
          })}
        </table>
      </div>
    </Card>
  );
}

interface GrantValues {
  email?: string;
  role?: Role;
}

/** Pick a registered person (searched by name, e-mail or company) and a role. */
function GrantForm() {
  const [form] = Form.useForm<GrantValues>();
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim(), 250);
  const people = useRolePeopleQuery(term);
  const [grant, granting] = useGrantRoleMutation();
  const toast = useToast();
  const fail = useFailureToast();
  const email = Form.useWatch('email', form);
  const role = Form.useWatch('role', form);

  const options = useMemo(
    () =>
      (people.data?.users ?? []).map((u) => ({
        value: u.email,
        label: u.name && u.name !== u.email ? `${u.name} — ${u.email}` : u.email,
      })),
    [people.data],
  );

  const submit = async (values: GrantValues) => {
    if (!values.email || !values.role) return;
    try {
      const reply = await grant({ email: values.email, role: values.role }).unwrap();
      toast.success(serverText(reply.message));
      form.resetFields();
      setSearch('');
    } catch (err) {
      fail(err);
    }
  };

  return (
    <Card title="Grant a role">
      <Form form={form} layout="inline" onFinish={submit} className="roles-grant">
        <Form.Item name="email" label="Person" className="roles-grant__person">
          <Select
            showSearch={{ filterOption: false, onSearch: setSearch }}
            placeholder="Search registered people by name or e-mail"
            options={options}
            loading={people.isFetching}
            notFoundContent={people.isFetching ? 'Searching…' : 'No registered person matches'}
            allowClear
          />
        </Form.Item>
        <Form.Item name="role" label="Role">
          <Select
            placeholder="Choose a role"
            className="roles-grant__role"
            options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={granting.isLoading} disabled={!email || !role}>
            Grant role
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}

function holderLabel(h: RoleHolder): string {
  return h.kind === 'admin_account'
    ? `${h.username ?? h.name}`
    : h.email && h.name !== h.email
      ? `${h.name} (${h.email})`
      : (h.email ?? h.name);
}

/** One role: its description and the people (and admin panel accounts) holding it, each with Revoke. */
function HoldersCard({ role, summary, loading }: { role: Role; summary: RoleSummary | undefined; loading: boolean }) {
  const [revoke] = useRevokeRoleMutation();
  const [deactivate] = useDeactivateAdminAccountMutation();
  const [resetTwoFactor] = useResetAdminAccountTwoFactorMutation();
  const [pending, setPending] = useState<string | null>(null);
  // The signed-in admin panel account (none for a person): its own second factor is turned off on Account security.
  const me = useAppSelector(selectAdminUser);
  const toast = useToast();
  const fail = useFailureToast();
  const holders = summary?.holders ?? [];

  const remove = async (h: RoleHolder) => {
    setPending(h.id);
    try {
      const reply = h.kind === 'admin_account' ? await deactivate(h.id).unwrap() : await revoke({ role, userId: h.id }).unwrap();
      toast.success(serverText(reply.message));
    } catch (err) {
      fail(err);
    } finally {
      setPending(null);
    }
  };

  const reset = async (h: RoleHolder) => {
    setPending(`2fa-${h.id}`);
    try {
      toast.success(serverText((await resetTwoFactor(h.id).unwrap()).message));
    } catch (err) {
      fail(err);
    } finally {
      setPending(null);
    }
  };

  return (
    <Card
      data-testid={`role-${role}`}
      className="roles-holders"
      title={
        <Flex gap={8} align="center">
          <RoleTag role={role} />
          <span>{ROLE_DESCRIPTIONS[role]}</span>
        </Flex>
      }
      extra={summary ? <Typography.Text type="secondary">{formatCount(summary.holder_count)} holding</Typography.Text> : null}
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : holders.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={NO_HOLDERS_TEXT} />
      ) : (
        <Table<RoleHolder>
          size="small"
          scroll={{ x: 'max-content' }}
          tableLayout="auto"
          rowKey={(h) => `${h.kind}-${h.id}`}
          dataSource={holders}
          pagination={holders.length > HOLDERS_PAGE_SIZE ? { pageSize: HOLDERS_PAGE_SIZE, size: 'small' } : false}
          onRow={() => ({ 'data-testid': 'role-holder' }) as HTMLAttributes<HTMLElement>}
          columns={[
            {
              title: 'Holder',
              key: 'holder',
              render: (_: unknown, h) => (
                <Flex gap={8} align="center" wrap>
                  <span>{holderLabel(h)}</span>
                  {h.kind === 'admin_account' && <Tag>Admin panel account</Tag>}
                </Flex>
              ),
            },
            { title: 'Since', dataIndex: 'since', key: 'since', width: 120, render: (v: string) => formatDate(v) },
            {
              title: <span className="roles-holders__sr">Actions</span>,
              key: 'actions',
              fixed: 'right' as const,
              align: 'right',
              render: (_: unknown, h) => (
                <Flex gap={8} justify="end">
                  {h.kind === 'admin_account' && h.id !== me?.id && (
                    <Popconfirm
                      title={`Reset two-factor sign-in of ${h.name}?`}
                      description="For a lost phone: the account signs in with its password alone until it sets up an app again."
                      okText="Reset"
                      okButtonProps={{ danger: true }}
                      onConfirm={() => reset(h)}
                    >
                      <Button size="small" loading={pending === `2fa-${h.id}`}>
                        Reset two-factor
                      </Button>
                    </Popconfirm>
                  )}
                  <Popconfirm
                    title={
                      h.kind === 'admin_account'
                        ? `Deactivate the admin panel account ${h.name}?`
                        : `Revoke ${ROLE_LABELS[role]} from ${h.name}?`
                    }
                    description={
                      h.kind === 'admin_account'
                        ? 'The account can no longer sign in to the admin panel; its sessions end now.'
                        : 'They are signed out now and keep any other roles they hold.'
                    }
                    okText={h.kind === 'admin_account' ? 'Deactivate' : 'Revoke'}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove(h)}
                  >
                    <Button size="small" danger loading={pending === h.id}>
                      Revoke
                    </Button>
                  </Popconfirm>
                </Flex>
              ),
            },
          ]}
          footer={
            summary && summary.holder_count > holders.length
              ? () => (
                  <Typography.Text type="secondary" data-testid="role-holders-more">
                    The {formatCount(holders.length)} most recent of {formatCount(summary.holder_count)} are listed; find anyone else on the
                    User Management page.
                  </Typography.Text>
                )
              : undefined
          }
        />
      )}
    </Card>
  );
}

export default RolesPage;

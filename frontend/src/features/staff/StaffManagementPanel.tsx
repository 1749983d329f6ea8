import { useEffect, useState } from 'react';
import { Alert, Button, Card, Drawer, Empty, Flex, Form, Input, List, Modal, Popconfirm, Select, Tag, Typography } from 'antd';
import { CopyOutlined, KeyOutlined, MailOutlined, RedoOutlined, StopOutlined, UserDeleteOutlined } from '@ant-design/icons';
import {
  formatDate,
  formatDateTime,
  invitableRolesFor,
  LIMITS,
  MESSAGES,
  type Invitation,
  type InvitationStatus,
  type InvitationWithLink,
  type InviteBody,
  type Role,
  type StaffMember,
} from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { serverText, useToast, type ToastText } from '../../shared/toast';
import {
  useCancelInvitationMutation,
  useDeactivateStaffMutation,
  useInvitationsQuery,
  useInviteStaffMutation,
  useOutgoingMailQuery,
  useResendInvitationMutation,
  useStaffMembersQuery,
  useStillReachableQuery,
  type StaffRealm,
} from './api';
import { ROLE_LABELS, RoleTag } from './roles';
import './staff-management.css';
import { LoadingSpin } from '../../shared/LoadingSpin';

export interface StaffManagementPanelProps {
  /** The session the calls run under: the admin panel's, or the staff portal's person session. */
  realm: StaffRealm;
  /** The signed-in person's roles: they invite only to the roles proto's INVITE_HIERARCHY gives them. */
  roles: readonly Role[];
  /** The signed-in person, who cannot deactivate themselves. */
  currentUserId?: string;
  /** Administrators may read the outgoing-mail log (e-mails kept because SMTP is not configured). */
  canReadMailLog?: boolean;
}

/** Invite by e-mail and role, list invitations and active staff, deactivate (spec: Staff Management panel). */
export function StaffManagementPanel({ realm, roles, currentUserId, canReadMailLog = false }: StaffManagementPanelProps) {
  const invitations = useInvitationsQuery(realm);
  const staff = useStaffMembersQuery(realm);
  const [mailLogOpen, setMailLogOpen] = useState(false);
  const toast = useToast();

  const loadFailed = invitations.isError || staff.isError;
  useEffect(() => {
    if (loadFailed) toast.error(MESSAGES.failedToLoadStaffData, 'staff-data');
  }, [loadFailed, toast]);

  const smtpConfigured = invitations.data?.smtp_configured ?? true;

  return (
    <Flex vertical gap={16} className="staff-management">
      <InviteForm realm={realm} roles={roles} />
      {!smtpConfigured && (
        <Alert
          type="info"
          showIcon
          title="E-mail is not set up on this server"
          description={
            <>
              Invitation e-mails are not sent: they are kept in the outgoing-mail log. Copy the sign-up link when you create (or re-send) an
              invitation and share it with the new staff member yourself.{' '}
              {canReadMailLog && (
                <Button type="link" size="small" className="staff-management__inline-link" onClick={() => setMailLogOpen(true)}>
                  Open the outgoing-mail log
                </Button>
              )}
            </>
          }
        />
      )}
      {loadFailed && (
        <Alert
          type="error"
          showIcon
          title={MESSAGES.failedToLoadStaffData}
          action={
            <Button
              size="small"
              onClick={() => {
                void invitations.refetch();
                void staff.refetch();
              }}
            >
              Try again
            </Button>
          }
        />
      )}
      <Flex gap={16} wrap className="staff-management__lists">
        <Card title={<h3 className="staff-management__heading">Pending Invitations</h3>} className="staff-management__card">
          <InvitationList realm={realm} invitations={invitations.data?.invitations} loading={invitations.isLoading} />
        </Card>
        <Card title={<h3 className="staff-management__heading">Active Staff Members</h3>} className="staff-management__card">
          <StaffList realm={realm} staff={staff.data?.staff} loading={staff.isLoading} currentUserId={currentUserId} />
        </Card>
      </Flex>
      {canReadMailLog && (
        <>
          {smtpConfigured && (
            <Button type="link" icon={<MailOutlined />} className="staff-management__mail-log-button" onClick={() => setMailLogOpen(true)}>
              Outgoing-mail log
            </Button>
          )}
          <MailLogDrawer realm={realm} open={mailLogOpen} onClose={() => setMailLogOpen(false)} />
        </>
      )}
    </Flex>
  );
}

// ---- invite form ----

type InviteValues = { email?: string; role?: InviteBody['role'] };

function failureDetail(error: unknown): ToastText | undefined {
  const message = errorBody(error)?.message;
  return message ? serverText(message) : undefined;
}

function InviteForm({ realm, roles }: { realm: StaffRealm; roles: readonly Role[] }) {
  const [form] = Form.useForm<InviteValues>();
  const email = Form.useWatch('email', form)?.trim() ?? '';
  const role = Form.useWatch('role', form);
  const [invite, { isLoading }] = useInviteStaffMutation();
  const [created, setCreated] = useState<InvitationWithLink | null>(null);
  const invitable = invitableRolesFor(roles);
  const toast = useToast();
  const isComplete = email !== '' && Boolean(role);

  async function send() {
    const values = form.getFieldsValue();
    const to = values.email?.trim();
    setCreated(null);
    if (!to || !values.role) {
      toast.error(MESSAGES.pleaseFillInAllFields, 'invite');
      return;
    }
    try {
      const made = await invite({ email: to, role: values.role, realm }).unwrap();
      form.resetFields();
      setCreated(made);
      // The spec's flow: the new link goes straight to the clipboard, to be shared. When the browser
      // refuses (no clipboard on an insecure origin), the link is still shown with Copy Link.
      if (await copyText(made.invite_url)) toast.success(MESSAGES.inviteLinkCopiedShare, 'copy-link');
    } catch (error) {
      const detail = failureDetail(error);
      if (detail) toast.notifyError(MESSAGES.failedToSendInvitation, detail, 'invite');
      else toast.error(MESSAGES.failedToSendInvitation, 'invite');
    }
  }

  return (
    <Card title={<h3 className="staff-management__heading">Invite a staff member</h3>}>
      <Form<InviteValues>
        form={form}
        name={`invite-${realm}`}
        layout="vertical"
        requiredMark={false}
        onFinish={() => void send()}
        disabled={isLoading}
        className="staff-management__invite"
      >
        <Form.Item label="Email" name="email" className="staff-management__invite-email">
          <Input
            type="email"
            placeholder="name@example.co.uk"
            autoComplete="off"
            maxLength={254}
            // The send button is disabled while a field is empty, so Enter would do nothing: say why.
            onPressEnter={(e) => {
              if (!isComplete) {
                e.preventDefault();
                void send();
              }
            }}
          />
        </Form.Item>
        <Form.Item label="Role" name="role" className="staff-management__invite-role">
          <Select<InviteBody['role']>
            placeholder="Choose a role"
            // Only the roles this person may invite to: nobody invites above their own rank.
            options={invitable.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          />
        </Form.Item>
        <Form.Item label=" " className="staff-management__invite-send">
          <Button type="primary" htmlType="submit" icon={<MailOutlined />} disabled={!isComplete} loading={isLoading}>
            Send Invitation
          </Button>
        </Form.Item>
      </Form>
      <div role="status" aria-live="polite">
        {created && <LinkOnce invitation={created} heading={`Invitation created for ${created.email}`} />}
      </div>
    </Card>
  );
}

/**
 * A fresh invitation's sign-up link, shown once to the person who made it (on creation or re-send):
 * the server keeps only a hash, and no list carries it again.
 */
function LinkOnce({ invitation, heading }: { invitation: InvitationWithLink; heading: string }) {
  const [copyRefused, setCopyRefused] = useState(false);
  const toast = useToast();
  const url = invitation.invite_url;

  async function copyLink() {
    if (await copyText(url)) {
      setCopyRefused(false);
      toast.success(MESSAGES.inviteLinkCopied, 'copy-link');
    } else setCopyRefused(true); // no clipboard (an insecure origin, or permission refused)
  }

  return (
    <Alert
      type="success"
      showIcon
      className="staff-management__link-once"
      title={heading}
      description={
        <Flex vertical gap={8}>
          <span>{MESSAGES.inviteLinkShownOnce}</span>
          <Flex gap={8} wrap>
            <Input
              readOnly
              value={url}
              aria-label={`Sign-up link for ${invitation.email}`}
              onFocus={(e) => e.currentTarget.select()}
              className="staff-management__link-input"
            />
            <Button icon={<CopyOutlined />} onClick={() => void copyLink()}>
              Copy Link
            </Button>
          </Flex>
          {copyRefused && <span>Your browser did not allow copying. Select the link above and copy it yourself.</span>}
        </Flex>
      }
    />
  );
}

// ---- invitations ----

const STATUS_COLOURS: Record<InvitationStatus, string> = {
  pending: 'blue',
  accepted: 'green',
  expired: 'orange',
  cancelled: 'default',
};

function byNewest<T extends { created_at: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => b.created_at.localeCompare(a.created_at));
}

async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function InvitationList({ realm, invitations, loading }: { realm: StaffRealm; invitations?: Invitation[]; loading: boolean }) {
  const [cancel] = useCancelInvitationMutation();
  const [resend] = useResendInvitationMutation();
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [resending, setResending] = useState<string | null>(null);
  const [renewed, setRenewed] = useState<InvitationWithLink | null>(null);
  const toast = useToast();

  async function onResend(invitation: Invitation) {
    setResending(invitation.id);
    try {
      setRenewed(await resend({ id: invitation.id, realm }).unwrap());
    } catch (error) {
      const detail = failureDetail(error);
      if (detail) toast.notifyError(MESSAGES.failedToSendInvitation, detail, 'resend-invitation');
      else toast.error(MESSAGES.failedToSendInvitation, 'resend-invitation');
    } finally {
      setResending(null);
    }
  }

  async function onCancel(invitation: Invitation) {
    setCancelling(invitation.id);
    try {
      await cancel({ id: invitation.id, realm }).unwrap();
      toast.success(MESSAGES.invitationCancelled, 'cancel-invitation');
    } catch (error) {
      const detail = failureDetail(error);
      if (detail) toast.notifyError(MESSAGES.failedToCancelInvitation, detail, 'cancel-invitation');
      else toast.error(MESSAGES.failedToCancelInvitation, 'cancel-invitation');
    } finally {
      setCancelling(null);
    }
  }

  if (loading) return <LoadingSpin label="Loading invitations" />;
  if (!invitations?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No invitations yet" />;

  return (
    <>
      <List
        aria-label="Invitations"
        dataSource={byNewest(invitations)}
        renderItem={(inv) => (
          <List.Item data-testid="invitation">
            <List.Item.Meta
              title={
                <Flex wrap gap={8} align="center">
                  <span className="staff-management__email">{inv.email}</span>
                  <RoleTag role={inv.role} />
                  <Tag color={STATUS_COLOURS[inv.status]}>{inv.status}</Tag>
                </Flex>
              }
              description={
                <Flex vertical gap={8}>
                  <span>
                    Sent {formatDate(inv.created_at)}
                    {inv.invited_by_name ? ` by ${inv.invited_by_name}` : ''}
                    {inv.status === 'pending' && ` · expires ${formatDate(inv.expires_at)}`}
                    {inv.status === 'pending' && inv.delivery === 'failed' && ' · the e-mail could not be sent'}
                  </span>
                  {(inv.status === 'pending' || inv.status === 'expired') && (
                    <Flex gap={8} wrap>
                      <Popconfirm
                        title="Re-send this invitation?"
                        description={`A new link is made and e-mailed to ${inv.email}, valid for another ${LIMITS.invitationDays} days; the old link stops working.`}
                        okText="Re-send"
                        cancelText="Keep it"
                        onConfirm={() => onResend(inv)}
                      >
                        <Button
                          size="small"
                          icon={<RedoOutlined />}
                          loading={resending === inv.id}
                          aria-label={`Re-send the invitation to ${inv.email}`}
                        >
                          Re-send
                        </Button>
                      </Popconfirm>
                      {inv.status === 'pending' && (
                        <Popconfirm
                          title="Cancel this invitation?"
                          description={`The link sent to ${inv.email} will stop working.`}
                          okText="Cancel invitation"
                          cancelText="Keep it"
                          onConfirm={() => onCancel(inv)}
                        >
                          <Button
                            size="small"
                            danger
                            icon={<StopOutlined />}
                            loading={cancelling === inv.id}
                            aria-label={`Cancel invitation for ${inv.email}`}
                          >
                            Cancel
                          </Button>
                        </Popconfirm>
                      )}
                    </Flex>
                  )}
                </Flex>
              }
            />
          </List.Item>
        )}
      />
      <Modal open={renewed !== null} title="New invite link" footer={null} onCancel={() => setRenewed(null)}>
        {renewed && <LinkOnce invitation={renewed} heading={`Invitation re-sent to ${renewed.email}`} />}
      </Modal>
    </>
  );
}

// ---- staff ----

function displayName(m: StaffMember): string {
  return [m.first_name, m.last_name].filter(Boolean).join(' ').trim() || m.email;
}

function StaffList({
  realm,
  staff,
  loading,
  currentUserId,
}: {
  realm: StaffRealm;
  staff?: StaffMember[];
  loading: boolean;
  currentUserId?: string;
}) {
  const [deactivate] = useDeactivateStaffMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [reach, setReach] = useState<{ userId: string; name: string } | null>(null);
  const toast = useToast();

  async function onDeactivate(member: StaffMember) {
    setBusy(member.user_id);
    try {
      await deactivate({ userId: member.user_id, realm }).unwrap();
      toast.success(MESSAGES.staffDeactivated, 'deactivate');
      // Show what is left straight away: it should be nothing (issue 32, the leaver view).
      setReach({ userId: member.user_id, name: displayName(member) });
    } catch (error) {
      const detail = failureDetail(error);
      if (detail) toast.notifyError(MESSAGES.failedToDeactivateStaff, detail, 'deactivate');
      else toast.error(MESSAGES.failedToDeactivateStaff, 'deactivate');
    } finally {
      setBusy(null);
    }
  }

  if (loading) return <LoadingSpin label="Loading staff" />;
  const drawer = <StillReachDrawer realm={realm} target={reach} onClose={() => setReach(null)} />;
  if (!staff?.length)
    return (
      <>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No active staff members" />
        {drawer}
      </>
    );

  return (
    <>
      <List
        aria-label="Active staff members"
        dataSource={staff}
        renderItem={(m) => {
          const name = displayName(m);
          const isSelf = m.user_id === currentUserId;
          return (
            <List.Item
              data-testid="staff-member"
              actions={[
                <Button
                  key="access"
                  size="small"
                  icon={<KeyOutlined />}
                  aria-label={`Access: what ${name} can still reach`}
                  onClick={() => setReach({ userId: m.user_id, name })}
                >
                  Access
                </Button>,
                <Popconfirm
                  key="deactivate"
                  title={`Deactivate ${name}?`}
                  description="They lose access at once, including sessions that are open now."
                  okText="Deactivate"
                  okButtonProps={{ danger: true }}
                  cancelText="Keep"
                  onConfirm={() => onDeactivate(m)}
                  disabled={isSelf}
                >
                  <Button
                    size="small"
                    danger
                    icon={<UserDeleteOutlined />}
                    disabled={isSelf}
                    title={isSelf ? 'You cannot deactivate yourself' : undefined}
                    loading={busy === m.user_id}
                    aria-label={`Deactivate ${name}`}
                  >
                    Deactivate
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={
                  <Flex wrap gap={8} align="center">
                    <span>{name}</span>
                    <RoleTag role={m.role} />
                    {isSelf && <Tag>You</Tag>}
                  </Flex>
                }
                description={
                  <>
                    {name !== m.email && <>{m.email} · </>}Granted {formatDate(m.granted_at)}
                  </>
                }
              />
            </List.Item>
          );
        }}
      />
      {drawer}
    </>
  );
}

// ---- what a person can still reach ----

/** The leaver view: everything that still lets the person in; after a deactivation it says nothing is left. */
function StillReachDrawer({
  realm,
  target,
  onClose,
}: {
  realm: StaffRealm;
  target: { userId: string; name: string } | null;
  onClose: () => void;
}) {
  const q = useStillReachableQuery(target ? { userId: target.userId, realm } : { userId: '', realm }, {
    skip: !target,
    refetchOnMountOrArgChange: true,
  });
  const d = q.data;
  const sections: { title: string; items: string[] }[] = d
    ? [
        { title: 'Roles', items: d.roles.map((r) => `${ROLE_LABELS[r.role as Role] ?? r.role} since ${formatDate(r.granted_at)}`) },
        {
          title: 'Signed-in sessions',
          items: d.sessions.map(
            (x) => `Since ${formatDateTime(x.created_at)}, last used ${formatDateTime(x.last_used_at)}${x.ip ? ` from ${x.ip}` : ''}`,
          ),
        },
        {
          title: 'Invitations they sent',
          items: d.invitations_sent.map(
            (i) => `${i.email} (${ROLE_LABELS[i.role as Role] ?? i.role}), expires ${formatDate(i.expires_at)}`,
          ),
        },
        {
          title: 'Password reset links',
          items: d.password_reset_links.map((r) => `Sent ${formatDateTime(r.created_at)}, expires ${formatDateTime(r.expires_at)}`),
        },
        { title: 'Calendar feeds', items: d.calendar_feeds.map((f) => `Deadlines feed made ${formatDateTime(f.since)}`) },
      ]
    : [];
  return (
    <Drawer title={target ? `What ${target.name} can still reach` : ''} open={target !== null} onClose={onClose} size="default">
      {q.isFetching && !d ? (
        <LoadingSpin label="Loading access" />
      ) : q.isError ? (
        <Alert
          type="error"
          showIcon
          title="What this person can reach could not be loaded."
          action={
            <Button size="small" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        />
      ) : d?.nothing_left ? (
        <Alert type="success" showIcon title="Nothing left" description="No role, session, invitation, reset link or calendar feed." />
      ) : (
        <Flex vertical gap={12} data-testid="still-reach">
          {sections
            .filter((s) => s.items.length > 0)
            .map((s) => (
              <section key={s.title} aria-label={s.title}>
                <Typography.Title level={4}>{s.title}</Typography.Title>
                <ul className="staff-management__reach">
                  {s.items.map((i) => (
                    <li key={i}>{i}</li>
                  ))}
                </ul>
              </section>
            ))}
          <Button size="small" onClick={() => void q.refetch()} className="staff-management__reach-refresh">
            Refresh
          </Button>
        </Flex>
      )}
    </Drawer>
  );
}

// ---- outgoing mail ----

function MailLogDrawer({ realm, open, onClose }: { realm: StaffRealm; open: boolean; onClose: () => void }) {
  const mail = useOutgoingMailQuery(realm, { skip: !open, refetchOnMountOrArgChange: true });
  return (
    <Drawer title="Outgoing-mail log" open={open} onClose={onClose} size="large">
      {mail.isLoading ? (
        <LoadingSpin label="Loading the outgoing-mail log" />
      ) : mail.isError ? (
        <Alert type="error" showIcon title="The outgoing-mail log could not be loaded." />
      ) : !mail.data?.mail.length ? (
        <Empty description="No e-mails yet" />
      ) : (
        <List
          dataSource={mail.data.mail}
          renderItem={(m) => (
            <List.Item>
              <Flex vertical gap={4} className="staff-management__mail">
                <Typography.Text strong>{m.subject}</Typography.Text>
                <Typography.Text type="secondary">
                  To {m.to} · {formatDateTime(m.created_at)} · {m.status}
                  {m.error ? ` (${m.error})` : ''}
                </Typography.Text>
                <pre className="staff-management__mail-body">{m.body}</pre>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}

export default StaffManagementPanel;

import { useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, Modal, QRCode, Skeleton, Space, Tag, Typography } from 'antd';
import { DownloadOutlined, KeyOutlined, LockOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { formatDate, homeFor, MESSAGES } from '@countinghouse/proto';
import { useNavigate } from 'react-router-dom';
import { errorBody } from '../../app/api';
import { PageHeader } from '../../shared/PageHeader';
import { serverText, useToast } from '../../shared/toast';
import { usePageTitle } from '../../shared/use-page-title';
import { useMeQuery } from './api';
import { cancelled, createPasskey, webAuthnAvailable } from './webauthn';
import {
  usePasskeyRegisterOptionsMutation,
  usePasskeysQuery,
  useRegisterPasskeyMutation,
  useRemovePasskeyMutation,
  useConfirmTotpMutation,
  useDisableTwoFactorMutation,
  useNewRecoveryCodesMutation,
  useRefreshPersonSessionMutation,
  useStartTotpMutation,
  useTwoFactorStatusQuery,
  type TwoFactorRealm,
} from './two-factor-api';
import './auth.css';

/** The secret in groups of four, as people type it into an app by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/** A plain-text file of the recovery codes, downloaded by the browser (nothing leaves the machine). */
function downloadCodes(codes: readonly string[]) {
  const text = [
    'Countinghouse recovery codes',
    'Each code signs you in once if you cannot use your authenticator app. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'countinghouse-recovery-codes.txt';
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/** The realm as the endpoints take it: people's calls stay as they were (no realm field). */
const realmArg = (realm: TwoFactorRealm) => (realm === 'admin' ? { realm } : {});

/** Ten recovery codes, shown once: a list, a download and a copy. */
function RecoveryCodes({ codes, onDone, doneLabel }: { codes: string[]; onDone: () => void; doneLabel: string }) {
  return (
    <div className="two-factor__codes">
      <Alert
        type="warning"
        showIcon
        title="Save your recovery codes now"
        description="Each code signs you in once if you lose your phone. They are shown only this once."
      />
      <ol className="two-factor__code-list" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <Space wrap>
        <Button icon={<DownloadOutlined />} onClick={() => downloadCodes(codes)}>
          Download codes
        </Button>
        <Typography.Text copyable={{ text: codes.join('\n'), tooltips: ['Copy codes', 'Copied'] }}>Copy codes</Typography.Text>
        <Button type="primary" onClick={onDone}>
          {doneLabel}
        </Button>
      </Space>
    </div>
  );
}

/** Set up an authenticator app: QR code (drawn here, no outside service), the secret for typing, a first code. */
function Enrol({ realm, onEnrolled }: { realm: TwoFactorRealm; onEnrolled: (codes: string[]) => void }) {
  const [start, started] = useStartTotpMutation();
  const [confirm, confirming] = useConfirmTotpMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [form] = Form.useForm<{ code: string }>();

  async function begin() {
    setFailure(null);
    try {
      await start(realm).unwrap();
    } catch (e) {
      setFailure(errorBody(e)?.message ?? MESSAGES.unexpectedError);
    }
  }

  async function onFinish(v: { code: string }) {
    setFailure(null);
    try {
      const r = await confirm({ code: v.code.replace(/\s/g, ''), ...realmArg(realm) }).unwrap();
      onEnrolled(r.recovery_codes);
    } catch (e) {
      setFailure(errorBody(e)?.message ?? MESSAGES.unexpectedError);
      form.setFieldValue('code', '');
    }
  }

  if (!started.data) {
    return (
      <Space orientation="vertical">
        {failure && <Alert type="error" showIcon role="alert" title={failure} />}
        <Typography.Paragraph>
          Use an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password): after your
          password, you type the 6-digit code it shows.
        </Typography.Paragraph>
        <Button type="primary" icon={<SafetyCertificateOutlined />} onClick={() => void begin()} loading={started.isLoading}>
          Set up an authenticator app
        </Button>
      </Space>
    );
  }
  const { secret, otpauth_uri } = started.data;
  return (
    <div className="two-factor__enrol">
      <ol className="two-factor__steps">
        <li>
          <Typography.Paragraph>Scan this QR code with your authenticator app.</Typography.Paragraph>
          <div role="img" aria-label="QR code to add this account to an authenticator app" className="two-factor__qr">
            <QRCode value={otpauth_uri} type="svg" size={184} bordered={false} />
          </div>
        </li>
        <li>
          <Typography.Paragraph>Or type this key into the app (time-based, 6 digits):</Typography.Paragraph>
          <Typography.Text code copyable={{ text: secret, tooltips: ['Copy key', 'Copied'] }} data-testid="totp-secret">
            {groupSecret(secret)}
          </Typography.Text>
          <details className="two-factor__uri">
            <summary>Show the set-up link</summary>
            <Typography.Text code className="two-factor__uri-text">
              {otpauth_uri}
            </Typography.Text>
          </details>
        </li>
        <li>
          <Typography.Paragraph>Enter the code the app shows to finish.</Typography.Paragraph>
          {failure && <Alert type="error" showIcon role="alert" title={failure} className="auth-page__alert" />}
          <Form form={form} name="totp-confirm" layout="vertical" requiredMark={false} onFinish={onFinish} disabled={confirming.isLoading}>
            <Form.Item
              label="Authentication code"
              name="code"
              rules={[{ required: true, pattern: /^\s*\d{3}\s?\d{3}\s*$/, message: 'Enter the 6-digit code from your app' }]}
            >
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={7} className="two-factor__code-input" autoFocus />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={confirming.isLoading}>
              Turn on two-factor sign-in
            </Button>
          </Form>
        </li>
      </ol>
    </div>
  );
}

/** New recovery codes after a current code from the app. */
function NewCodesButton({ realm, onCodes }: { realm: TwoFactorRealm; onCodes: (codes: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const [renew, renewing] = useNewRecoveryCodesMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [form] = Form.useForm<{ code: string }>();
  const close = () => {
    setOpen(false);
    setFailure(null);
    form.resetFields();
  };
  async function onFinish(v: { code: string }) {
    try {
      const r = await renew({ code: v.code.replace(/\s/g, ''), ...realmArg(realm) }).unwrap();
      close();
      onCodes(r.recovery_codes);
    } catch (e) {
      setFailure(errorBody(e)?.message ?? MESSAGES.unexpectedError);
      form.setFieldValue('code', '');
    }
  }
  return (
    <>
      <Button onClick={() => setOpen(true)}>New recovery codes</Button>
      <Modal
        open={open}
        title="New recovery codes"
        okText="Make new codes"
        onOk={() => form.submit()}
        confirmLoading={renewing.isLoading}
        onCancel={close}
      >
        <Typography.Paragraph type="secondary">Your current recovery codes stop working.</Typography.Paragraph>
        {failure && <Alert type="error" showIcon role="alert" title={failure} className="auth-page__alert" />}
        <Form form={form} name="totp-new-codes" layout="vertical" requiredMark={false} onFinish={onFinish}>
          <Form.Item label="Authentication code" name="code" rules={[{ required: true, message: 'Enter the 6-digit code from your app' }]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={7} autoFocus />
          </Form.Item>
          <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
        </Form>
      </Modal>
    </>
  );
}

/** Turn two-factor sign-in off: the password and a code (or a recovery code). */
function DisableButton({ realm }: { realm: TwoFactorRealm }) {
  const [open, setOpen] = useState(false);
  const [disable, disabling] = useDisableTwoFactorMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [form] = Form.useForm<{ password: string; code: string }>();
  const toast = useToast();
  const close = () => {
    setOpen(false);
    setFailure(null);
    form.resetFields();
  };
  async function onFinish(v: { password: string; code: string }) {
    const code = v.code.trim();
    const body = /^\d{3}\s?\d{3}$/.test(code) ? { code: code.replace(/\s/g, '') } : { recovery_code: code };
    try {
      const r = await disable({ password: v.password, ...body, ...realmArg(realm) }).unwrap();
      close();
      toast.success(serverText(r.message), 'two-factor');
    } catch (e) {
      setFailure(errorBody(e)?.message ?? MESSAGES.unexpectedError);
      form.setFieldsValue({ password: '', code: '' });
    }
  }
  return (
    <>
      <Button danger onClick={() => setOpen(true)}>
        Turn off
      </Button>
      <Modal
        open={open}
        title="Turn off two-factor sign-in"
        okText="Turn off"
        okButtonProps={{ danger: true }}
        onOk={() => form.submit()}
        confirmLoading={disabling.isLoading}
        onCancel={close}
      >
        {failure && <Alert type="error" showIcon role="alert" title={failure} className="auth-page__alert" />}
        <Form form={form} name="totp-disable" layout="vertical" requiredMark={false} onFinish={onFinish}>
          <Form.Item label="Password" name="password" rules={[{ required: true, message: 'Please enter your password' }]}>
            <Input.Password prefix={<LockOutlined aria-hidden="true" />} autoComplete="current-password" maxLength={200} autoFocus />
          </Form.Item>
          <Form.Item
            label="Authentication code or recovery code"
            name="code"
            rules={[{ required: true, message: 'Enter the code from your app, or a recovery code' }]}
          >
            <Input autoComplete="one-time-code" maxLength={40} />
          </Form.Item>
          <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
        </Form>
      </Modal>
    </>
  );
}

/** Passkeys: sign in with the device's lock (fingerprint, face, PIN) instead of a password. */
function PasskeysCard({ onAdded }: { onAdded: () => void }) {
  const list = usePasskeysQuery();
  const [options] = usePasskeyRegisterOptionsMutation();
  const [register] = useRegisterPasskeyMutation();
  const [remove, removing] = useRemovePasskeyMutation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const toast = useToast();
  const supported = webAuthnAvailable();

  async function add() {
    setFailure(null);
    setBusy(true);
    try {
      const o = await options().unwrap();
      const response = await createPasskey(o.options);
      await register({
        challenge_id: o.challenge_id,
        response,
        name: navigator.platform ? `Passkey (${navigator.platform})` : 'Passkey',
      }).unwrap();
      toast.success(serverText('Passkey added. You can sign in with it instead of your password.'), 'passkeys');
      onAdded();
    } catch (e) {
      if (!cancelled(e)) setFailure(errorBody(e)?.message ?? 'The passkey could not be added. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Passkeys" className="account-security__card">
      <Typography.Paragraph>
        A passkey signs you in with your device’s lock (fingerprint, face or PIN) instead of your password: two factors in one step.
      </Typography.Paragraph>
      {failure && <Alert type="error" showIcon role="alert" title={failure} className="auth-page__alert" />}
      {list.isLoading ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : (list.data?.passkeys.length ?? 0) === 0 ? (
        <Typography.Paragraph type="secondary">No passkeys yet.</Typography.Paragraph>
      ) : (
        <ul className="account-security__passkeys" aria-label="Your passkeys">
          {list.data!.passkeys.map((k) => (
            <li key={k.id}>
              <Flex justify="space-between" align="center" gap={8} wrap>
                <span>
                  <strong>{k.name}</strong>
                  <br />
                  <Typography.Text type="secondary">
                    Added {formatDate(k.created_at)}
                    {k.last_used_at ? `, last used ${formatDate(k.last_used_at)}` : ', not used yet'}
                  </Typography.Text>
                </span>
                <Button
                  danger
                  aria-label={`Remove ${k.name}`}
                  loading={removing.isLoading && removing.originalArgs === k.id}
                  onClick={() =>
                    void remove(k.id)
                      .unwrap()
                      .then((r) => toast.success(serverText(r.message), 'passkeys'))
                      .catch((e: unknown) => setFailure(errorBody(e)?.message ?? MESSAGES.unexpectedError))
                  }
                >
                  Remove
                </Button>
              </Flex>
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <Button icon={<KeyOutlined />} onClick={() => void add()} loading={busy}>
          Add a passkey
        </Button>
      ) : (
        <Typography.Paragraph type="secondary">This browser cannot use passkeys.</Typography.Paragraph>
      )}
    </Card>
  );
}

/**
 * Two-factor sign-in with an authenticator app, for people (realm 'user') and the admin panel's own
 * accounts ('admin'): the status, setting it up (QR code, key, first code), the recovery codes shown
 * once, new codes, turning it off. `onEnrolled` runs once it is on (a new session token without the
 * enrolment restriction); `onFreshCodesDone` when the first codes were saved.
 */
export function TwoFactorCard({
  realm,
  onEnrolled,
  onFreshCodesDone,
}: {
  realm: TwoFactorRealm;
  onEnrolled: () => Promise<void> | void;
  onFreshCodesDone: () => void;
}) {
  const status = useTwoFactorStatusQuery(realm === 'admin' ? realm : undefined);
  const [codes, setCodes] = useState<{ list: string[]; fresh: boolean } | null>(null);
  return (
    <Card
      title={
        <Flex align="center" gap={8} wrap>
          <span>Two-factor sign-in</span>
          {status.data && (status.data.totp_enabled ? <Tag color="green">On</Tag> : <Tag>Off</Tag>)}
        </Flex>
      }
    >
      {status.isLoading ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : status.isError ? (
        <Alert
          type="error"
          showIcon
          title="We could not load your sign-in settings"
          action={<Button onClick={() => void status.refetch()}>Try again</Button>}
        />
      ) : codes ? (
        <RecoveryCodes
          codes={codes.list}
          doneLabel={codes.fresh ? 'Continue' : 'Done'}
          onDone={() => {
            setCodes(null);
            if (codes.fresh) onFreshCodesDone();
          }}
        />
      ) : status.data?.totp_enabled ? (
        <Space orientation="vertical">
          <Typography.Paragraph>
            After your password you type the code from your authenticator app. Recovery codes left:{' '}
            <strong>{status.data.recovery_codes_left}</strong> of 10.
          </Typography.Paragraph>
          <Space wrap>
            <NewCodesButton realm={realm} onCodes={(list) => setCodes({ list, fresh: false })} />
            <DisableButton realm={realm} />
          </Space>
        </Space>
      ) : (
        <Enrol
          realm={realm}
          onEnrolled={(list) => {
            setCodes({ list, fresh: true });
            void onEnrolled();
          }}
        />
      )}
    </Card>
  );
}

/**
 * Account security (issue 32) for every signed-in person, staff and clients: two-factor sign-in with an
 * authenticator app, its recovery codes, turning it off. A member of staff the practice requires it of
 * arrives here straight from sign-in and can go nowhere else until it is on.
 */
export function AccountSecurityPage() {
  usePageTitle('Account security');
  const me = useMeQuery();
  const [refresh] = useRefreshPersonSessionMutation();
  const [enrolledHere, setEnrolledHere] = useState(false);
  const navigate = useNavigate();
  const required = me.data?.two_factor_enrolment_required === true;
  const home = me.data ? (homeFor(me.data.roles) === '/work' ? '/work' : '/client-dashboard') : '/';

  async function refreshAfterEnrolment() {
    setEnrolledHere(true);
    // The session's next access token carries no enrolment restriction.
    await refresh()
      .unwrap()
      .catch(() => undefined);
  }

  return (
    <div className="account-security">
      <PageHeader title="Account security" />
      {required && !enrolledHere && (
        <Alert
          type="warning"
          showIcon
          className="auth-page__alert"
          title="Two-factor sign-in is required"
          description={MESSAGES.twoFactorEnrolmentRequired}
        />
      )}
      <TwoFactorCard realm="user" onEnrolled={refreshAfterEnrolment} onFreshCodesDone={() => navigate(home, { replace: true })} />
      <PasskeysCard
        onAdded={() => {
          // A passkey is a second factor too: the session's next token carries no enrolment restriction.
          if (required)
            void refresh()
              .unwrap()
              .then(() => navigate(home, { replace: true }))
              .catch(() => undefined);
        }}
      />
    </div>
  );
}

export default AccountSecurityPage;

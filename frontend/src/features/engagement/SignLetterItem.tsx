import {
  ENGAGEMENT_MESSAGES,
  formatDate,
  formatDateTime,
  LETTER_STATUS_LABELS,
  SIGNER_NAME_MAX,
  type Letter,
  type LetterSummary,
} from '@countinghouse/proto';
import { Alert, Button, Checkbox, Input, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { downloadSignedLetter, pdfName, useMyLettersQuery, useSignLetterMutation } from './api';
import './engagement.css';

function SignDialog({ letter, onClose }: { letter: Letter; onClose: () => void }) {
  const [name, setName] = useState('');
  const [agree, setAgree] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sign, signing] = useSignLetterMutation();
  const toast = useToast();
  const submit = async () => {
    setError(null);
    if (!name.trim()) return setError(ENGAGEMENT_MESSAGES.nameRequired);
    if (!agree) return setError(ENGAGEMENT_MESSAGES.mustAgree);
    try {
      const r = await sign({ id: letter.id, full_name: name, agree }).unwrap();
      toast.success(serverText(r.message));
      onClose();
    } catch (err) {
      setError(errorBody(err)?.message ?? 'The letter could not be signed. Please try again.');
    }
  };
  return (
    <Modal
      open
      width={760}
      title={`Your engagement letter (version ${letter.version})`}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Not now
        </Button>,
        <Button key="sign" type="primary" loading={signing.isLoading} onClick={() => void submit()}>
          Sign the letter
        </Button>,
      ]}
    >
      <p>
        Please read the letter below. It covers the {letter.package_name} package at{' '}
        {letter.monthly_fee.toLocaleString('en-GB', { style: 'currency', currency: 'GBP' })} per month.
      </p>
      <pre className="engagement-letter-text" tabIndex={0} aria-label="Letter text">
        {letter.text}
      </pre>
      <Space direction="vertical" style={{ width: '100%' }}>
        <label htmlFor="signer-name" className="engagement-label">
          Type your full name to sign
        </label>
        <Input id="signer-name" value={name} maxLength={SIGNER_NAME_MAX} autoComplete="name" onChange={(e) => setName(e.target.value)} />
        <Checkbox checked={agree} onChange={(e) => setAgree(e.target.checked)}>
          I have read this engagement letter and agree to its terms on behalf of {letter.client_name}.
        </Checkbox>
        {error && <Alert type="error" showIcon title={error} role="alert" />}
        <Typography.Text type="secondary">
          We record your name, the time, your IP address and browser with a SHA-256 fingerprint of this text (
          {letter.text_sha256.slice(0, 12)}…).
        </Typography.Text>
      </Space>
    </Modal>
  );
}

function SignedList({ letters }: { letters: LetterSummary[] }) {
  const toast = useToast();
  const signed = letters.filter((l) => l.signed_at);
  if (signed.length === 0) return null;
  return (
    <ul className="engagement-signed-list">
      {signed.map((l) => (
        <li key={l.id}>
          Version {l.version} ({l.package_name}), signed {formatDate(l.signed_at)}
          {l.status === 'superseded' && <Tag className="engagement-tag">{LETTER_STATUS_LABELS.superseded}</Tag>}{' '}
          <Button
            size="small"
            onClick={() =>
              void downloadSignedLetter(l.id, pdfName(l.version, l.signed_at!), 'user').catch((e: Error) =>
                toast.error(serverText(e.message)),
              )
            }
          >
            Download signed PDF (v{l.version})
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The onboarding checklist item on the client dashboard: "Sign your engagement letter". */
export function SignLetterItem() {
  const q = useMyLettersQuery();
  const [open, setOpen] = useState<Letter | null>(null);
  if (q.isLoading) return <li>Loading your engagement letter…</li>;
  if (q.isError)
    return (
      <li>
        <strong>{ENGAGEMENT_MESSAGES.checklistItem}</strong> <Tag color="red">Could not load</Tag>{' '}
        <Button size="small" onClick={() => void q.refetch()}>
          Try again
        </Button>
      </li>
    );
  const c = q.data?.clients[0];
  if (!c || c.status === 'not_sent') return null;
  const toSign = c.to_sign;
  const newest = c.letters[0];
  return (
    <li className={toSign ? '' : 'is-done'}>
      <strong>{ENGAGEMENT_MESSAGES.checklistItem}</strong>{' '}
      {toSign ? <Tag>To do</Tag> : <Tag color="green">Signed {formatDate(newest?.signed_at)}</Tag>}
      <p>
        {toSign
          ? toSign.version > 1
            ? `Your terms have changed (${toSign.package_name}): please sign the new version of your letter, sent ${formatDateTime(toSign.sent_at)}.`
            : 'The terms of our work for you: please read and sign before we start.'
          : 'Thank you. Your signed letters are also in your documents.'}
      </p>
      {toSign && (
        <Button type="primary" onClick={() => setOpen(toSign)}>
          {ENGAGEMENT_MESSAGES.checklistItem}
        </Button>
      )}
      <SignedList letters={c.letters} />
      {open && <SignDialog letter={open} onClose={() => setOpen(null)} />}
    </li>
  );
}

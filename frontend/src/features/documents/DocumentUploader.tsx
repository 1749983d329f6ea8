import { CloudUploadOutlined, DeleteOutlined, PaperClipOutlined } from '@ant-design/icons';
import { UPLOAD_DOCUMENT_TYPES, fileKindFor, LIMITS, MAX_DESCRIPTION_LENGTH, MESSAGES, UPLOAD_ACCEPT } from '@countinghouse/proto';
import { Button, Form, Input, Progress, Select, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { formattedText, serverText, useToast } from '../../shared/toast';
import { documentsChanged, useDocumentClientsQuery, type DocumentsRealm } from './api';
import { ACCESS_NOTE, formatBytes, uploadErrorTitle } from './labels';
import { TransferError, uploadFile } from './transfer';
import './documents.css';

export interface DocumentUploaderProps {
  /** Upload for this client (a client card's dialog). Without it, staff pick a client (`pickClient`), a client uploads for their own business. */
  clientId?: string;
  /** Show the client pick (staff and admin pages without a fixed client). */
  pickClient?: boolean;
  realm?: DocumentsRealm;
  /** Called after every file of a batch is stored, with how many there were. */
  onUploaded?: (count: number) => void;
}

type Item = { uid: string; file: File; progress: number; state: 'waiting' | 'uploading' | 'done' | 'failed' };

let seq = 0;

/** The spec's document upload: type, optional description, several files, progress per file, one after another. */
export function DocumentUploader({ clientId, pickClient = false, realm = 'admin', onUploaded }: DocumentUploaderProps) {
  const toast = useToast();
  const dispatch = useDispatch();
  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<Item[]>([]);
  const [documentType, setDocumentType] = useState<string | undefined>();
  const [description, setDescription] = useState('');
  const [pickedClient, setPickedClient] = useState<string | undefined>();
  const [clientSearch, setClientSearch] = useState('');
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const clients = useDocumentClientsQuery({ search: clientSearch || undefined, realm }, { skip: !pickClient || Boolean(clientId) });

  const targetClient = clientId ?? pickedClient;
  const pending = items.filter((i) => i.state !== 'done');
  const needsClient = pickClient && !clientId && !pickedClient;
  const ready = pending.length > 0 && Boolean(documentType) && !needsClient;

  function choose(list: FileList | null) {
    if (!list) return;
    const accepted: Item[] = [];
    for (const file of Array.from(list)) {
      // The same checks the server makes by name, type and size; it also checks the content.
      if (!fileKindFor(file.name, file.type)) {
        toast.notifyError(MESSAGES.invalidFileTypeTitle, formattedText(MESSAGES.invalidFileType(file.name)));
        continue;
      }
      if (file.size > LIMITS.maxUploadBytes) {
        toast.notifyError(MESSAGES.fileTooLargeTitle, formattedText(MESSAGES.fileTooLarge(file.name)));
        continue;
      }
      accepted.push({ uid: `f${++seq}`, file, progress: 0, state: 'waiting' });
    }
    setItems((prev) => [...prev.filter((i) => i.state !== 'done'), ...accepted]);
    if (input.current) input.current.value = '';
  }

  const update = (uid: string, patch: Partial<Item>) => setItems((prev) => prev.map((i) => (i.uid === uid ? { ...i, ...patch } : i)));

  async function upload() {
    if (!ready || !documentType) {
      toast.notifyError(MESSAGES.missingInformationTitle, MESSAGES.missingInformation);
      return;
    }
    setUploading(true);
    let stored = 0;
    try {
      // One after another; the first failure stops the rest (spec section 7).
      for (const item of pending) {
        update(item.uid, { state: 'uploading', progress: 0 });
        try {
          await uploadFile(
            {
              file: item.file,
              documentType,
              clientId: targetClient,
              description: description.trim() || undefined,
              onProgress: (p) => update(item.uid, { progress: Math.round(p * 100) }),
            },
            realm,
          );
          stored++;
          update(item.uid, { state: 'done', progress: 100 });
        } catch (err) {
          update(item.uid, { state: 'failed' });
          if (err instanceof TransferError && err.status >= 400 && err.status < 500 && err.code !== 'HTTP') {
            toast.notifyError(serverText(uploadErrorTitle(err.code, err.message)), serverText(err.message));
          } else {
            toast.notifyError(MESSAGES.uploadFailedTitle, MESSAGES.uploadFailedText);
          }
          return;
        }
      }
      toast.notifySuccess(MESSAGES.uploadSuccessfulTitle, formattedText(MESSAGES.uploadSuccessful(stored)));
      // Let the last file be seen at 100% before the finished batch leaves the list (files added
      // meanwhile stay: only finished ones are cleared).
      setTimeout(() => setItems((prev) => prev.filter((i) => i.state !== 'done')), 1000);
      setDescription('');
      onUploaded?.(stored);
    } finally {
      if (stored > 0) dispatch(documentsChanged());
      setUploading(false);
    }
  }

  return (
    <div className="documents-uploader">
      <Typography.Paragraph type="secondary">{ACCESS_NOTE}</Typography.Paragraph>
      <Form layout="vertical" component="div">
        {pickClient && !clientId && (
          <Form.Item label="Client" required>
            <Select
              showSearch={{ filterOption: false, onSearch: setClientSearch }}
              aria-label="Client"
              placeholder="Choose a client"
              value={pickedClient}
              onChange={setPickedClient}
              loading={clients.isFetching}
              options={(clients.data?.clients ?? []).map((c) => ({ value: c.client_id, label: `${c.company_name} (${c.contact_email})` }))}
              disabled={uploading}
            />
          </Form.Item>
        )}
        <Form.Item label="Document type" required>
          <Select
            aria-label="Document type for upload"
            placeholder="Select document type"
            value={documentType}
            onChange={setDocumentType}
            disabled={uploading}
            options={UPLOAD_DOCUMENT_TYPES.map((t) => ({ value: t.value, label: t.uploadLabel }))}
          />
        </Form.Item>
        <Form.Item label="Description (optional)">
          <Input.TextArea
            aria-label="Description"
            rows={2}
            maxLength={MAX_DESCRIPTION_LENGTH}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            disabled={uploading}
          />
        </Form.Item>
        <Form.Item label="Files" required extra="PDF, JPEG, PNG, GIF, Excel (xlsx, xls) or CSV; up to 10MB each.">
          <input
            ref={input}
            type="file"
            multiple
            accept={UPLOAD_ACCEPT}
            hidden
            // The browser's own "Choose Files" control never shows (a stylesheet giving inputs a display
            // would undo `hidden`): the labelled button below opens it (issue 22).
            style={{ display: 'none' }}
            tabIndex={-1}
            aria-label="Choose files to upload"
            data-testid="documents-file-input"
            onChange={(e) => choose(e.target.files)}
          />
          {/* Drag and drop (issue 33) beside the keyboard-friendly button that opens the picker. */}
          <div
            className={`documents-uploader__drop${dragging ? ' is-dragging' : ''}`}
            data-testid="documents-drop-zone"
            onDragOver={(e) => {
              if (uploading) return;
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragging(false);
              if (!uploading) choose(e.dataTransfer.files);
            }}
          >
            <span>Drag files here, or</span>
            <Button icon={<PaperClipOutlined />} onClick={() => input.current?.click()} disabled={uploading}>
              Choose files
            </Button>
          </div>
        </Form.Item>
      </Form>

      {items.length > 0 && (
        <div className="documents-uploader__files" aria-label="Files to upload">
          {items.map((i) => (
            <div className="documents-uploader__file" key={i.uid} data-testid="upload-item">
              <span className="documents-uploader__file-name" title={i.file.name}>
                {i.file.name} <Typography.Text type="secondary">({formatBytes(i.file.size)})</Typography.Text>
              </span>
              <Progress
                percent={i.progress}
                size="small"
                status={i.state === 'failed' ? 'exception' : i.state === 'done' ? 'success' : i.state === 'uploading' ? 'active' : 'normal'}
                aria-label={`Progress of ${i.file.name}`}
              />
              <Button
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                aria-label={`Remove ${i.file.name}`}
                disabled={uploading}
                onClick={() => setItems((prev) => prev.filter((x) => x.uid !== i.uid))}
              />
            </div>
          ))}
        </div>
      )}

      <Space direction="vertical">
        <Button
          type="primary"
          icon={<CloudUploadOutlined />}
          disabled={!ready || uploading}
          loading={uploading}
          onClick={() => void upload()}
        >
          {uploading ? 'Uploading...' : `Upload ${pending.length || ''} file${pending.length === 1 ? '' : 's'}`.replace('  ', ' ')}
        </Button>
        {!ready && !uploading && (
          <Typography.Text type="secondary" data-testid="upload-hint">
            {needsClient ? 'Choose a client, then select files and document type' : MESSAGES.missingInformation}
          </Typography.Text>
        )}
      </Space>
    </div>
  );
}

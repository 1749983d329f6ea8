import {
  ADMIN_AUTH_ROUTES,
  DOCUMENTS_ROUTES,
  IDENTITY_ROUTES,
  UPLOAD_FIELDS,
  type ErrorBody,
  type UploadReply,
} from '@countinghouse/proto';
import type { DocumentsRealm } from './api';

// Uploads and downloads go around RTK Query: uploads need XMLHttpRequest's upload progress (fetch
// has none) and downloads hand a file to the browser. Both refresh an expired session once.

const REFRESH: Record<Exclude<DocumentsRealm, 'any'>, string> = {
  admin: ADMIN_AUTH_ROUTES.refresh,
  user: IDENTITY_ROUTES.refresh,
};

async function refresh(realm: DocumentsRealm): Promise<boolean> {
  const order = realm === 'any' ? (['user', 'admin'] as const) : [realm];
  for (const r of order) {
    const res = await fetch(REFRESH[r], { method: 'POST', credentials: 'include' }).catch(() => null);
    if (res?.ok) return true;
  }
  return false;
}

export class TransferError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function parseError(status: number, text: string): TransferError {
  try {
    const body = JSON.parse(text) as ErrorBody;
    if (body?.error?.code) return new TransferError(status, body.error.code, body.error.message);
  } catch {
    // not our error shape (a proxy's page): fall through
  }
  return new TransferError(status, status === 0 ? 'NETWORK' : 'HTTP', text.slice(0, 200));
}

export interface UploadOne {
  file: File;
  documentType: string;
  clientId?: string;
  description?: string;
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
}

function sendOnce(o: UploadOne): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    // fields first: the server decides where a file goes before it reads it
    if (o.clientId) form.append(UPLOAD_FIELDS.clientId, o.clientId);
    form.append(UPLOAD_FIELDS.documentType, o.documentType);
    if (o.description) form.append(UPLOAD_FIELDS.description, o.description);
    form.append(UPLOAD_FIELDS.file, o.file, o.file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', DOCUMENTS_ROUTES.upload);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) o.onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => resolve({ status: 0, text: '' });
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    o.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** Upload one file with progress; throws TransferError with the server's code and message. */
export async function uploadFile(o: UploadOne, realm: DocumentsRealm): Promise<UploadReply> {
  let res = await sendOnce(o);
  if (res.status === 401 && (await refresh(realm))) {
    o.onProgress(0);
    res = await sendOnce(o);
  }
  if (res.status === 201) return JSON.parse(res.text) as UploadReply;
  throw parseError(res.status, res.text);
}

/** Fetch the file and hand it to the browser under its original name. */
export async function downloadDocument(id: string, filename: string, realm: DocumentsRealm): Promise<void> {
  const url = DOCUMENTS_ROUTES.download(id);
  let res = await fetch(url, { credentials: 'include' });
  if (res.status === 401 && (await refresh(realm))) res = await fetch(url, { credentials: 'include' });
  if (!res.ok) throw parseError(res.status, await res.text());
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

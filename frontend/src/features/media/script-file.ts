import type { ScriptRecord } from '@countinghouse/proto';

/** `company-overview-video-script.txt`-style names from the script's title. */
export function scriptFileName(record: Pick<ScriptRecord, 'script' | 'type'>): string {
  const base = (record.script?.title ?? record.type)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${base || 'video'}-script.txt`;
}

/** Save text as a file through a temporary object URL. */
export function downloadTextFile(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export type ShareOutcome = 'shared' | 'copied' | 'cancelled';

/**
 * The system share sheet where the browser has one; otherwise (or if sharing fails) the clipboard.
 * Throws when neither works.
 */
export async function shareText(title: string, text: string): Promise<ShareOutcome> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, text });
      return 'shared';
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') return 'cancelled';
      // NotAllowedError and friends: fall back to copying.
    }
  }
  if (!navigator.clipboard?.writeText) throw new Error('No clipboard');
  await navigator.clipboard.writeText(text);
  return 'copied';
}

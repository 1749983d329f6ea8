import { useMemo, useSyncExternalStore } from 'react';
import { toastHost } from './toast-host';
import { App, message as staticMessage, notification as staticNotification } from 'antd';
import type { MESSAGES } from '@countinghouse/proto';

/** Any fixed text of the spec's catalogue (proto MESSAGES); retyped strings do not type-check. */
type Catalogue = typeof MESSAGES;
export type SpecText = {
  [K in keyof Catalogue]: Catalogue[K] extends string ? Catalogue[K] : string & { readonly __formatted: true };
}[keyof Catalogue];
/** Text that came from the server's `error.message` (which proto also sources from MESSAGES). */
export type ServerText = string & { readonly __server: true };
export type ToastText = SpecText | ServerText;

export const serverText = (text: string): ServerText => text as ServerText;
/** For the catalogue's templates: MESSAGES.uploadSuccessful(3) and friends. */
export const formattedText = (text: string): SpecText => text as SpecText;

/**
 * Toasts through antd's App context (so they follow the theme and locale). A `key` collapses
 * repeats, e.g. several failing calls that all end the session show one toast.
 *
 * They go to the root's ToastHost when it is mounted, so a toast survives the navigation after it;
 * otherwise to the App context of the lazy AntdShell route (app/antd-shell.tsx). A component rendered
 * outside it (a route added beside the shell) gets antd's empty default context; it then falls back
 * to antd's static message and notification, so a toast is never lost.
 */
export function useToast() {
  const context = App.useApp();
  // The root's ToastHost first: its toasts outlive a move to another area (shared/toast-host.ts).
  const host = useSyncExternalStore(toastHost.subscribe, toastHost.get);
  const app = host ?? context;
  const hasContext = typeof app.message.success === 'function';
  const message = hasContext ? app.message : staticMessage;
  const notification = hasContext ? app.notification : staticNotification;
  return useMemo(
    () => ({
      success: (content: ToastText, key?: string) => void message.success({ content, key }),
      error: (content: ToastText, key?: string) => void message.error({ content, key }),
      info: (content: ToastText, key?: string) => void message.info({ content, key }),
      /** A titled toast, for the spec's two-part texts ('Upload failed' + detail). */
      notifyError: (title: ToastText, description: ToastText, key?: string) =>
        notification.error({ title, description, key, placement: 'topRight' }),
      notifySuccess: (title: ToastText, description: ToastText, key?: string) =>
        notification.success({ title, description, key, placement: 'topRight' }),
    }),
    [message, notification],
  );
}
export type Toast = ReturnType<typeof useToast>;

import type { App } from 'antd';

/**
 * The one place toasts are shown from, which outlives navigation.
 *
 * Each area's pages sit in their own AntdShell (sign-in forms, the portal, /work, /admin): moving from
 * one to another unmounts the first shell's antd App, and a toast it held went with it. "Login
 * Successful" vanished the moment the dashboard opened (a CI run caught the race). The app's root
 * therefore mounts one ToastHost (app/antd-shell.tsx) once antd has been loaded, beside the routes,
 * and useToast sends every toast there.
 *
 * This module imports no antd at run time: the root and the marketing pages stay free of it.
 */
type AppApi = ReturnType<typeof App.useApp>;

let host: AppApi | null = null;
let shellLoaded = false;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const toastHost = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  get: (): AppApi | null => host,
  set(api: AppApi | null) {
    host = api;
    emit();
  },
  /** True once the antd shell's module has been evaluated (then the host costs no download). */
  shellLoaded: (): boolean => shellLoaded,
  markShellLoaded() {
    if (shellLoaded) return;
    shellLoaded = true;
    emit();
  },
};

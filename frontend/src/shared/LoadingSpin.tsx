import { Spin, type SpinProps } from 'antd';

/**
 * antd's spinner as a named status, for a part of a page still loading. antd's Spin draws a plain div
 * (aria-live, aria-busy), so an aria-label given to it alone sits on an element with no role, which the
 * ARIA rules forbid (axe: aria-prohibited-attr, serious) and screen readers do not read: the status role
 * gives the label to an element allowed to have one, announced politely when it appears.
 */
export function LoadingSpin({ label, ...props }: { label: string } & Omit<SpinProps, 'spinning'>) {
  // (SpinProps does not name them; Spin passes the rest of its props to that div)
  const status = { role: 'status', 'aria-label': label };
  return <Spin {...props} {...status} />;
}

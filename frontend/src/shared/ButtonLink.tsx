import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router-dom';

export type ButtonLinkProps = Omit<ButtonProps, 'href' | 'htmlType' | 'onClick'> & { to: To; replace?: boolean };

/**
 * A link that looks like a button (issue 33): one `<a href>` drawn by antd's Button, navigating inside
 * the app like react-router's Link (a modified click or middle click still opens a new tab). Use it
 * instead of a Link wrapping a Button, which nests a button inside a link (two interactive elements in
 * one, two tab stops; WCAG 4.1.2).
 */
export function ButtonLink({ to, replace, ...rest }: ButtonLinkProps) {
  const href = useHref(to);
  const handle = useLinkClickHandler<HTMLAnchorElement>(to, { replace });
  return <Button {...rest} href={href} onClick={(e: MouseEvent<HTMLElement>) => handle(e as MouseEvent<HTMLAnchorElement>)} />;
}

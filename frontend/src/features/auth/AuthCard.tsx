import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import './auth.css';

/** The centred card of the sign-in and sign-up pages. */
export function AuthCard({
  title,
  intro,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="auth-page">
      <Card className="auth-page__card">
        <Typography.Title level={1} className="auth-page__title">
          {title}
        </Typography.Title>
        {intro && <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>}
        {children}
        {footer && <div className="auth-page__links">{footer}</div>}
      </Card>
    </div>
  );
}

import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';

interface Props {
  title: ReactNode;
  /** One line under the title. */
  subtitle?: ReactNode;
  /** Actions on the right (they wrap under the title on a phone). */
  extra?: ReactNode;
}

/**
 * Every signed-in page's title: the page's one h1, the same size everywhere (theme.ts TITLE_SIZE),
 * with an optional line under it and actions beside it (issue 22).
 */
export function PageHeader({ title, subtitle, extra }: Props) {
  return (
    <Flex wrap justify="space-between" align="flex-start" gap={12} className="page-header">
      <div className="page-header__text">
        <Typography.Title level={1} className="page-header__title">
          {title}
        </Typography.Title>
        {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
      </div>
      {extra && <div className="page-header__extra">{extra}</div>}
    </Flex>
  );
}

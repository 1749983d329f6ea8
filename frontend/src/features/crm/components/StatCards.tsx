import { Card, Col, Row, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface StatCardItem {
  title: string;
  /** The small line under the title (the control panel's 'Registered businesses' and so on). */
  note?: string;
  /** undefined while loading; null when the figure could not be loaded. */
  value: ReactNode | null | undefined;
  icon?: ReactNode;
}

/** A row of summary cards; a figure that failed to load shows a dash, never an invented number. */
export function StatCards({ items, headingLevel = 3 }: { items: StatCardItem[]; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const span = Math.max(6, Math.floor(24 / items.length));
  return (
    <Row gutter={[16, 16]}>
      {items.map((item) => (
        <Col key={item.title} xs={24} sm={12} xl={span}>
          <Card className="crm-stat" size="small">
            <div className="crm-stat__head">
              <Heading className="crm-stat__title">{item.title}</Heading>
              {item.icon && (
                <span className="crm-stat__icon" aria-hidden="true">
                  {item.icon}
                </span>
              )}
            </div>
            {item.value === undefined ? (
              <Skeleton.Input active size="small" aria-label={`Loading ${item.title}`} />
            ) : (
              <div className="crm-stat__value">{item.value ?? '—'}</div>
            )}
            {item.note && <Typography.Text type="secondary">{item.note}</Typography.Text>}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

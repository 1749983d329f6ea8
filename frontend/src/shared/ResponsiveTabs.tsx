import { useId, useState } from 'react';
import { Select, Tabs, type TabsProps } from 'antd';
import { useNarrow } from './use-narrow';

type Item = NonNullable<TabsProps['items']>[number];

interface Props {
  items: Item[];
  defaultActiveKey?: string;
  /** What the choice is called on a phone (the select's label). */
  label: string;
}

/**
 * Tabs on a wide screen; below 768 px, where five tabs do not fit (antd then hides some behind a
 * "more" button that breaks the tab list's ARIA), a labelled select and the chosen panel (issue 22).
 * The chosen tab is kept when the screen changes size.
 */
export function ResponsiveTabs({ items, defaultActiveKey, label }: Props) {
  const narrow = useNarrow();
  const [active, setActive] = useState(defaultActiveKey ?? String(items[0]?.key ?? ''));
  const id = useId();
  // Many tabs (a client's record has twelve) sit closer together so that they fit at 1280 px without
  // antd's "more" button, which would break the tab list's ARIA (aria-required-children).
  if (!narrow)
    return (
      <Tabs
        items={items}
        activeKey={active}
        onChange={setActive}
        tabBarGutter={items.length > 11 ? 10 : items.length > 8 ? 14 : undefined}
      />
    );
  const current = items.find((i) => String(i.key) === active) ?? items[0];
  return (
    <div className="responsive-tabs">
      <label htmlFor={id} className="responsive-tabs__label">
        {label}
      </label>
      <Select
        id={id}
        value={active}
        onChange={setActive}
        options={items.map((i) => ({ value: String(i.key), label: i.label }))}
        className="responsive-tabs__select"
      />
      <section className="responsive-tabs__panel" aria-labelledby={id}>
        {current?.children}
      </section>
    </div>
  );
}

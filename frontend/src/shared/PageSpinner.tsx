import { Flex, Spin } from 'antd';

/** A centred spinner with a spoken label; `fullScreen` fills the viewport. */
export function PageSpinner({ label = 'Loading…', fullScreen = false }: { label?: string; fullScreen?: boolean }) {
  return (
    <Flex
      role="status"
      aria-live="polite"
      vertical
      align="center"
      justify="center"
      gap={12}
      style={{ minHeight: fullScreen ? '100vh' : 240, width: '100%' }}
    >
      <Spin size="large" />
      <span>{label}</span>
    </Flex>
  );
}

import { Alert, Button } from 'antd';

/** An inline failure with a retry, for lists whose failure text is not in the spec's toast catalogue. */
export function LoadFailed({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <Alert
      type="error"
      showIcon
      title={text}
      role="alert"
      action={
        <Button size="small" onClick={onRetry}>
          Try again
        </Button>
      }
    />
  );
}

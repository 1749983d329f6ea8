import { Button, Card, Flex, Input, Typography } from 'antd';
import { formatDateTime } from '@countinghouse/proto';
import type { AuthRealm } from '../../app/api';
import { formattedText, useToast } from '../../shared/toast';
import { useCalendarFeedQuery, useResetCalendarFeedMutation } from './api';

/** The member of staff's private iCalendar feed: a secret address, shown once, that can be replaced. */
export function CalendarFeedCard({ realm = 'admin' }: { realm?: AuthRealm }) {
  const feed = useCalendarFeedQuery({ realm });
  const [reset, resetting] = useResetCalendarFeedMutation();
  const toast = useToast();
  const url = resetting.data?.url ?? null;
  const has = resetting.data?.has_feed ?? feed.data?.has_feed ?? false;
  return (
    <Card size="small" title="Calendar feed">
      <Flex vertical gap={8}>
        <Typography.Text>
          Subscribe to your clients' deadlines in Outlook, Google or Apple Calendar with your private address. Keep it secret: anyone with
          it can read the deadlines.
        </Typography.Text>
        {url && <Input readOnly value={url} aria-label="Your calendar address" onFocus={(e) => e.currentTarget.select()} />}
        {url && <Typography.Text type="secondary">Copy it now: it is shown only once.</Typography.Text>}
        {!url && has && feed.data?.created_at && (
          <Typography.Text type="secondary">
            Address made {formatDateTime(feed.data.created_at)}. Make a new one if you lost it or it leaked.
          </Typography.Text>
        )}
        <div>
          <Button
            loading={resetting.isLoading}
            onClick={async () => {
              try {
                await reset({ realm }).unwrap();
              } catch {
                toast.error(formattedText('The calendar address could not be made'), 'feed');
              }
            }}
          >
            {has ? 'Make a new address' : 'Make my calendar address'}
          </Button>
        </div>
      </Flex>
    </Card>
  );
}

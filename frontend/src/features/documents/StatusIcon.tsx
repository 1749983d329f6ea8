import { CheckCircleOutlined, ClockCircleOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import { documentStatusColour } from '@countinghouse/proto';

const COLOURS = { green: '#1e7b34', blue: '#0b57d0', orange: '#8a5300' } as const;

/** Completed and active green, pending blue, anything else orange (spec). */
export function StatusIcon({ status }: { status: string }) {
  const colour = documentStatusColour(status);
  const style = { color: COLOURS[colour] };
  const label = `Status ${status}`;
  if (colour === 'green') return <CheckCircleOutlined style={style} aria-label={label} data-colour={colour} />;
  if (colour === 'blue') return <ClockCircleOutlined style={style} aria-label={label} data-colour={colour} />;
  return <ExclamationCircleOutlined style={style} aria-label={label} data-colour={colour} />;
}

import { CheckCircleOutlined, ClockCircleOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import { documentStatusColour } from '@countinghouse/proto';

const COLOURS = { green: '#389e0d', blue: '#1677ff', orange: '#fa8c16' } as const;

/** Completed and active green, pending blue, anything else orange (spec). */
export function StatusIcon({ status }: { status: string }) {
  const colour = documentStatusColour(status);
  const style = { color: COLOURS[colour] };
  const label = `Status ${status}`;
  if (colour === 'green') return <CheckCircleOutlined style={style} aria-label={label} data-colour={colour} />;
  if (colour === 'blue') return <ClockCircleOutlined style={style} aria-label={label} data-colour={colour} />;
  return <ExclamationCircleOutlined style={style} aria-label={label} data-colour={colour} />;
}

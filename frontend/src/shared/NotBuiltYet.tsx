import { Result } from 'antd';
import { Link } from 'react-router-dom';
import { MESSAGES } from '@countinghouse/proto';
import { usePageTitle } from './use-page-title';

interface Props {
  /** The page's name, e.g. 'Client dashboard'. */
  name: string;
  /** The route it answers, shown so testers know where they are. */
  route: string;
}

/** An honest placeholder for a route a later issue builds: it must not pretend to work. */
export function NotBuiltYet({ name, route }: Props) {
  usePageTitle(name);
  return (
    <Result
      status="info"
      title="This page is not built yet"
      subTitle={
        <>
          <strong>{name}</strong> (<code>{route}</code>) is coming in a later release.
        </>
      }
      extra={<Link to="/">{MESSAGES.returnToHome}</Link>}
    />
  );
}

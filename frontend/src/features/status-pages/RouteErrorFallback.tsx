import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { MESSAGES } from '@countinghouse/proto';
import './status-pages.css';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

/**
 * errorElement of the root route. Deliberately plain markup: it must render even when the chunk
 * or component that failed was part of the UI kit. A plain <a> reloads the app from a clean state.
 */
export function RouteErrorFallback() {
  const error = useRouteError();
  return (
    <main className="status-page" role="alert">
      <h1 className="status-page__title">{MESSAGES.unexpectedApplicationError}</h1>
      <p className="status-page__text">
        <code>{describe(error)}</code>
      </p>
      <a href="/" className="status-page__link">
        {MESSAGES.returnToHome}
      </a>
    </main>
  );
}

export default RouteErrorFallback;

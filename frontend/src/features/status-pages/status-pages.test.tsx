import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@countinghouse/proto';
import { MemoryRouter } from 'react-router-dom';
import { Maintenance } from './Maintenance';
import { RouteErrorFallback } from './RouteErrorFallback';
import { NotFound } from './NotFound';
import { renderAt } from '../../test/render';

describe('NotFound', () => {
  it('shows the 404 texts, links home and logs the requested path', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <MemoryRouter initialEntries={['/no/such/page']}>
        <NotFound />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(consoleError).toHaveBeenCalledWith('404 Error: User attempted to access non-existent route:', '/no/such/page');
    expect(document.title).toContain('Page not found');
  });

  it('is what the router shows for an unknown address', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/definitely-not-a-route');
    expect(await screen.findByText(MESSAGES.notFoundText)).toBeInTheDocument();
  });
});

describe('Maintenance', () => {
  it('renders the heading and the three texts', () => {
    render(<Maintenance />);
    expect(screen.getByRole('heading', { name: 'Website Under Maintenance' })).toBeInTheDocument();
    expect(screen.getByText("We're currently updating our website to serve you better.")).toBeInTheDocument();
    expect(screen.getByText('Please check back soon.')).toBeInTheDocument();
    expect(screen.getByText('For urgent inquiries, please contact us directly.')).toBeInTheDocument();
  });
});

describe('RouteErrorFallback', () => {
  it('shows the fallback heading and the error message when a page throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    function Boom(): never {
      throw new Error('ledger exploded');
    }
    renderAt('/', { routes: [{ path: '/', element: <Boom />, errorElement: <RouteErrorFallback /> }] });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('ledger exploded')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });
});

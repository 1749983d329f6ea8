import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from 'antd';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AntdProviders } from '../app/antd-shell';
import { ButtonLink } from './ButtonLink';

// Issue 33: "Go to your dashboard" was a button inside a link (two nested interactive elements).

/**
 * Interactive elements inside another interactive element (a button in a link, a link in a button…).
 * axe's nested-interactive rule only looks inside roles with presentational children (a button's
 * content), so it misses a button inside a link: this DOM check covers both.
 */
const INTERACTIVE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"]), [role="button"], [role="link"]';
function nestedInteractive(container: HTMLElement): number {
  return Array.from(container.querySelectorAll(INTERACTIVE)).filter((el) => el.querySelector(INTERACTIVE) !== null).length;
}

function renderAt(ui: React.ReactNode) {
  return render(
    <AntdProviders>
      <MemoryRouter initialEntries={['/payment-success']}>
        <Routes>
          <Route path="/payment-success" element={ui} />
          <Route path="/client-dashboard" element={<h1>Your dashboard</h1>} />
        </Routes>
      </MemoryRouter>
    </AntdProviders>,
  );
}

describe('ButtonLink', () => {
  it('is one link, styled as a button, with no button inside, and no interactive element sits inside another', async () => {
    const { container } = renderAt(
      <ButtonLink to="/client-dashboard" type="primary">
        Go to your dashboard
      </ButtonLink>,
    );
    const link = screen.getByRole('link', { name: 'Go to your dashboard' });
    expect(link.tagName).toBe('A');
    expect(link.getAttribute('href')).toBe('/client-dashboard');
    expect(link.className).toContain('ant-btn');
    expect(screen.queryByRole('button')).toBeNull();
    expect(container.querySelectorAll('a button, button a, a a')).toHaveLength(0);
    expect(nestedInteractive(container)).toBe(0);
  });

  it('the old pattern is caught by the same check (the check can fail)', async () => {
    const { container } = renderAt(
      <Link to="/client-dashboard">
        <Button type="primary">Go to your dashboard</Button>
      </Link>,
    );
    expect(container.querySelectorAll('a button')).toHaveLength(1);
    expect(nestedInteractive(container)).toBeGreaterThan(0);
  });

  it('navigates inside the app on click and from the keyboard', async () => {
    renderAt(
      <ButtonLink to="/client-dashboard" type="primary">
        Go to your dashboard
      </ButtonLink>,
    );
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Your dashboard' })).toBeInTheDocument();
  });
});

describe('no button wrapped in a link anywhere in the frontend', () => {
  // every component's source (tests aside), read by Vite at build time of this test
  const sources = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx'], { query: '?raw', import: 'default', eager: true });

  it('finds no <Link>/<a> whose first child is a <Button> (use ButtonLink)', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const wrapped = /<(Link|a)\b[^>]*>\s*<Button\b/g;
    const found = Object.entries(sources).flatMap(([f, text]) => (text.match(wrapped) ?? []).map((m) => `${f}: ${m.replace(/\s+/g, ' ')}`));
    expect(found).toEqual([]);
  });
});

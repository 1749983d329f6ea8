import { render, screen } from '@testing-library/react';
import { theme as antdTheme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { AntdProviders } from './antd-shell';

// A user whose system asks for reduced motion (prefers-reduced-motion, WCAG 2.3.3) gets antd without its
// animations; everyone else keeps them.

const original = window.matchMedia;
afterEach(() => {
  window.matchMedia = original;
});

function prefersReducedMotion(reduce: boolean) {
  const base = original('(min-width: 0px)');
  window.matchMedia = (query: string) => ({ ...base, media: query, matches: reduce && query === '(prefers-reduced-motion: reduce)' });
}

function MotionProbe() {
  const { token } = antdTheme.useToken();
  return <p>motion {String(token.motion)}</p>;
}

describe('reduced motion', () => {
  it.each([
    [true, 'motion false'],
    [false, 'motion true'],
  ])('prefers reduced motion %s: %s', (reduce, shown) => {
    prefersReducedMotion(reduce);
    render(
      <AntdProviders>
        <MotionProbe />
      </AntdProviders>,
    );
    expect(screen.getByText(shown)).toBeInTheDocument();
  });
});

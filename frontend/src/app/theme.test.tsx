import { act, render, screen } from '@testing-library/react';
import { Alert, theme as antdTheme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { AntdProviders } from './antd-shell';
import { BADGE_COLOURS, COLOURS, REDUCED_MOTION_THEME, STATUS_FILLS, THEME, themeFor, type StatusTone } from './theme';

/** WCAG 2.1 relative luminance and contrast ratio (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const TONES = Object.keys(STATUS_FILLS) as StatusTone[];

describe('theme contrast (WCAG 2.1 AA)', () => {
  it('the contrast helper agrees with known ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('text colours reach 4.5:1 on white', () => {
    for (const c of [
      COLOURS.primary,
      COLOURS.text,
      COLOURS.textSecondary,
      COLOURS.textTertiary,
      COLOURS.success,
      COLOURS.warning,
      COLOURS.error,
    ])
      expect(contrast(c, '#ffffff'), c).toBeGreaterThanOrEqual(4.5);
  });

  it('badges: their text reaches 4.5:1 on their fill', () => {
    for (const [tone, b] of Object.entries(BADGE_COLOURS)) expect(contrast(b.color, b.background), tone).toBeGreaterThanOrEqual(4.5);
  });

  it.each(TONES)('%s fills: body text, the tone’s text and its icon reach 4.5:1 on the fill (and 4.5:1 / 3:1 on hover)', (tone) => {
    const f = STATUS_FILLS[tone];
    expect(contrast(COLOURS.text, f.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(COLOURS.textSecondary, f.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(f.text, f.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(f.icon, f.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(COLOURS.text, f.bgHover)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(f.text, f.bgHover)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(f.icon, f.bgHover)).toBeGreaterThanOrEqual(3);
    // A light fill, not a muddy mid-tone: the fill stays close to white, the border is darker than the fill.
    expect(luminance(f.bg)).toBeGreaterThan(0.85);
    expect(luminance(f.border)).toBeLessThan(luminance(f.bg));
  });

  it('the theme hands antd exactly these fills (not ones derived from the darkened base colours)', () => {
    const token = antdTheme.getDesignToken(THEME);
    const cap = { success: 'Success', warning: 'Warning', error: 'Error', info: 'Info' } as const;
    for (const tone of TONES) {
      const f = STATUS_FILLS[tone];
      const t = token as unknown as Record<string, string>;
      expect(t[`color${cap[tone]}Bg`]?.toLowerCase(), tone).toBe(f.bg);
      expect(t[`color${cap[tone]}Border`]?.toLowerCase(), tone).toBe(f.border);
      expect(t[`color${cap[tone]}Text`]?.toLowerCase(), tone).toBe(f.text);
      expect(t[`color${cap[tone]}BgHover`]?.toLowerCase(), tone).toBe(f.bgHover);
    }
  });

  it('a success and a warning alert are drawn with the light fills (the rendered CSS)', () => {
    render(
      <AntdProviders>
        <Alert type="success" title="Saved" />
        <Alert type="warning" title="Check this" />
      </AntdProviders>,
    );
    const css = Array.from(document.querySelectorAll('style'))
      .map((s) => s.textContent ?? '')
      .join('\n')
      .toLowerCase();
    // antd 6 draws with CSS variables: the alert's fill is the variable, the variable is the light fill.
    expect(css).toContain('.ant-alert-success{background:var(--ant-color-success-bg);}');
    expect(css).toContain('.ant-alert-warning{background:var(--ant-color-warning-bg);}');
    expect(css).toContain(`--ant-color-success-bg:${STATUS_FILLS.success.bg};`);
    expect(css).toContain(`--ant-color-warning-bg:${STATUS_FILLS.warning.bg};`);
    expect(css).toContain(`--ant-color-error-bg:${STATUS_FILLS.error.bg};`);
  });
});

describe('reduced motion (prefers-reduced-motion, WCAG 2.1 2.3.3)', () => {
  const original = window.matchMedia;
  afterEach(() => {
    window.matchMedia = original;
  });

  /** A matchMedia whose reduced-motion answer the test sets, and can change as the system setting would. */
  function motionPreference(reduce: boolean) {
    const listeners = new Set<() => void>();
    const state = { reduce };
    window.matchMedia = ((query: string) => ({
      get matches() {
        return query === '(prefers-reduced-motion: reduce)' ? state.reduce : false;
      },
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
      dispatchEvent: () => true,
    })) as unknown as typeof window.matchMedia;
    return {
      set(next: boolean) {
        state.reduce = next;
        act(() => listeners.forEach((l) => l()));
      },
    };
  }

  function Motion() {
    const { token } = antdTheme.useToken();
    return <output aria-label="motion">{String(token.motion)}</output>;
  }

  it('the reduced-motion theme is the theme with antd motion off, nothing else changed', () => {
    expect(themeFor(false)).toBe(THEME);
    expect(themeFor(true)).toBe(REDUCED_MOTION_THEME);
    expect(REDUCED_MOTION_THEME.token?.motion).toBe(false);
    expect({ ...REDUCED_MOTION_THEME.token, motion: undefined }).toEqual({ ...THEME.token, motion: undefined });
    expect(REDUCED_MOTION_THEME.components).toBe(THEME.components);
  });

  it('antd moves for a user who did not ask otherwise, not for one who asked for reduced motion, and follows a change', () => {
    const pref = motionPreference(false);
    render(
      <AntdProviders>
        <Motion />
      </AntdProviders>,
    );
    expect(screen.getByLabelText('motion')).toHaveTextContent('true');
    pref.set(true);
    expect(screen.getByLabelText('motion')).toHaveTextContent('false');
    pref.set(false);
    expect(screen.getByLabelText('motion')).toHaveTextContent('true');
  });

  it('a user who asked for reduced motion gets none from the first page drawn', () => {
    motionPreference(true);
    render(
      <AntdProviders>
        <Motion />
      </AntdProviders>,
    );
    expect(screen.getByLabelText('motion')).toHaveTextContent('false');
  });
});

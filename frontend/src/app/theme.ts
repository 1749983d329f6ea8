import type { ThemeConfig } from 'antd';

/**
 * The one place for the UI's colours and sizes (issue 22). Every text colour here reaches WCAG 2.1 AA
 * on white (4.5:1 for text, 3:1 for focus rings and control borders); the ratios are checked by
 * theme.test.ts so a new token cannot quietly fall below them.
 */
export const COLOURS = {
  /** 6.3:1 on white (antd's #1677ff is 4.1:1). The public site's brand blue. */
  primary: '#0b57d0',
  primaryHover: '#0842a0',
  /** Body text. */
  text: '#1b2430',
  /** Secondary text: 7.0:1 (antd's 45 % black is 3.4:1). */
  textSecondary: '#4a5565',
  /** Placeholders and tertiary text: 4.9:1. */
  textTertiary: '#5f6b7a',
  success: '#1e7b34',
  warning: '#8a5300',
  error: '#c0262d',
  /** Control borders: 3.2:1, so an input's edge is visible (WCAG 1.4.11). */
  border: '#8c96a3',
  borderLight: '#e3e7ee',
  /** The keyboard focus ring: the primary blue at full strength (antd's is a 10 % tint, ~1.7:1). */
  focus: '#0b57d0',
} as const;

/** Statuses and roles: dark text on a light fill (all 4.5:1 or better), one colour per meaning. */
export const BADGE_COLOURS = {
  green: { color: '#17602a', background: '#e6f4ea', border: '#9fd3ad' },
  blue: { color: '#0842a0', background: '#e8f0fe', border: '#a8c7fa' },
  amber: { color: '#7a4100', background: '#fff4e0', border: '#f0c27a' },
  /** Overdue (money owed): red. */
  red: { color: '#a3161d', background: '#fdecea', border: '#f2a9a5' },
  /** Cancelled (ended): purple-grey, apart from overdue's red. */
  purple: { color: '#5b2d86', background: '#f3ecfa', border: '#cdb4e6' },
  grey: { color: '#3d4652', background: '#f0f2f5', border: '#c4cad3' },
} as const;
export type BadgeTone = keyof typeof BADGE_COLOURS;

/**
 * Alerts, result icons and other status fills (issue 33): antd derives these backgrounds from the
 * darkened base colours when they are not set, which gave muddy olive fills. Each tone sets its own
 * light fill and border; body text, the tone's text colour and its icon colour stay 4.5:1 on the fill
 * (theme.test.ts).
 */
export const STATUS_FILLS = {
  success: {
    icon: COLOURS.success,
    text: BADGE_COLOURS.green.color,
    bg: '#e6f4ea',
    bgHover: '#d3ecd9',
    border: '#9fd3ad',
    borderHover: '#7cc18f',
  },
  warning: {
    icon: COLOURS.warning,
    text: BADGE_COLOURS.amber.color,
    bg: '#fff4e0',
    bgHover: '#ffe9c2',
    border: '#f0c27a',
    borderHover: '#e5a94a',
  },
  error: {
    icon: COLOURS.error,
    text: BADGE_COLOURS.red.color,
    bg: '#fdecea',
    bgHover: '#fbd9d5',
    border: '#f2a9a5',
    borderHover: '#ea847e',
  },
  info: { icon: COLOURS.primary, text: COLOURS.primaryHover, bg: '#e8f0fe', bgHover: '#d3e3fd', border: '#a8c7fa', borderHover: '#7cacf8' },
} as const;
export type StatusTone = keyof typeof STATUS_FILLS;

/** Page titles: one size everywhere (PageHeader). */
export const TITLE_SIZE = 28;

export const THEME: ThemeConfig = {
  zeroRuntime: true,
  token: {
    colorPrimary: COLOURS.primary,
    colorInfo: COLOURS.primary,
    colorLink: COLOURS.primary,
    colorLinkHover: COLOURS.primaryHover,
    colorSuccess: COLOURS.success,
    colorWarning: COLOURS.warning,
    colorError: COLOURS.error,
    colorSuccessBg: STATUS_FILLS.success.bg,
    colorSuccessBgHover: STATUS_FILLS.success.bgHover,
    colorSuccessBorder: STATUS_FILLS.success.border,
    colorSuccessBorderHover: STATUS_FILLS.success.borderHover,
    colorSuccessText: STATUS_FILLS.success.text,
    colorWarningBg: STATUS_FILLS.warning.bg,
    colorWarningBgHover: STATUS_FILLS.warning.bgHover,
    colorWarningBorder: STATUS_FILLS.warning.border,
    colorWarningBorderHover: STATUS_FILLS.warning.borderHover,
    colorWarningText: STATUS_FILLS.warning.text,
    colorErrorBg: STATUS_FILLS.error.bg,
    colorErrorBgHover: STATUS_FILLS.error.bgHover,
    colorErrorBorder: STATUS_FILLS.error.border,
    colorErrorBorderHover: STATUS_FILLS.error.borderHover,
    colorErrorText: STATUS_FILLS.error.text,
    colorInfoBg: STATUS_FILLS.info.bg,
    colorInfoBgHover: STATUS_FILLS.info.bgHover,
    colorInfoBorder: STATUS_FILLS.info.border,
    colorInfoBorderHover: STATUS_FILLS.info.borderHover,
    colorInfoText: STATUS_FILLS.info.text,
    colorText: COLOURS.text,
    colorTextHeading: COLOURS.text,
    colorTextSecondary: COLOURS.textSecondary,
    colorTextTertiary: COLOURS.textTertiary,
    colorTextDescription: COLOURS.textSecondary,
    colorTextPlaceholder: COLOURS.textTertiary,
    colorTextLabel: COLOURS.textSecondary,
    colorIcon: COLOURS.textSecondary,
    colorBorder: COLOURS.border,
    colorSplit: COLOURS.borderLight,
    colorBorderSecondary: COLOURS.borderLight,
    // antd draws focus with `lineWidthFocus` in colorPrimaryBorder and the input glow in controlOutline.
    colorPrimaryBorder: COLOURS.focus,
    controlOutline: 'rgba(11, 87, 208, 0.45)',
    controlOutlineWidth: 2,
    lineWidthFocus: 2,
    fontSizeHeading1: TITLE_SIZE,
  },
  components: {
    Tag: { defaultColor: BADGE_COLOURS.grey.color, defaultBg: BADGE_COLOURS.grey.background },
    Menu: { itemSelectedColor: COLOURS.primaryHover, itemColor: COLOURS.text },
    Tabs: { itemColor: COLOURS.textSecondary, itemSelectedColor: COLOURS.primaryHover },
    Badge: { colorError: COLOURS.error },
    Statistic: { titleFontSize: 14 },
    Pagination: { itemActiveColor: COLOURS.primaryHover },
  },
};

/**
 * THEME for a user who asked for reduced motion (prefers-reduced-motion: reduce, WCAG 2.1 2.3.3): antd's
 * `motion` token off, so its drawers, dialogs, dropdowns, tabs and messages appear and go at once.
 */
export const REDUCED_MOTION_THEME: ThemeConfig = { ...THEME, token: { ...THEME.token, motion: false } };

/** The theme for the user's motion preference. */
export function themeFor(reducedMotion: boolean): ThemeConfig {
  return reducedMotion ? REDUCED_MOTION_THEME : THEME;
}

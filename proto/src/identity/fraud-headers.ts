/**
 * HMRC's fraud prevention header Gov-Client-Multi-Factor (issue 32, for the MTD work): which second
 * factor a person used when they signed in. HMRC's specification (Fraud prevention, "WEB_APP_VIA_SERVER"
 * connection method): a comma-separated list, one entry per factor, each a percent-encoded
 * `type=<TOTP|AUTH_CODE|OTHER>&timestamp=<yyyy-MM-ddThh:mmZ, UTC>&unique-reference=<a hash that
 * identifies the factor, not the secret itself>`. Example from HMRC:
 * `type=TOTP&timestamp=2017-04-21T13%3A23Z&unique-reference=fc4b5fd6816f75a7c81fc8eaa9499d6a299bd803397166e8c4cf9280b801d62c`.
 * An authenticator app is TOTP; a recovery code and a passkey are OTHER (no code is sent by SMS or
 * e-mail here, so never AUTH_CODE). A sign-in without a second factor gives an empty header, which
 * HMRC asks to be sent empty rather than left out.
 */
export type MultiFactorType = 'TOTP' | 'AUTH_CODE' | 'OTHER';

export interface SecondFactorUse {
  type: MultiFactorType;
  /** When it was used (seconds since the epoch). */
  at: number;
  /** A SHA-256 (hex) identifying the factor: the same factor always gives the same reference. */
  reference: string;
}

/** UTC to the minute, as HMRC writes it: 2017-04-21T13:23Z. */
export function multiFactorTimestamp(unixSeconds: number): string {
  return `${new Date(unixSeconds * 1000).toISOString().slice(0, 16)}Z`;
}

/** The Gov-Client-Multi-Factor value for the factors used ('' when none). */
export function govClientMultiFactor(uses: readonly SecondFactorUse[]): string {
  return uses
    .map((u) =>
      [
        `type=${encodeURIComponent(u.type)}`,
        `timestamp=${encodeURIComponent(multiFactorTimestamp(u.at))}`,
        `unique-reference=${encodeURIComponent(u.reference)}`,
      ].join('&'),
    )
    .join(',');
}

import { PROVIDER_LABELS, type IntegrationType } from '@countinghouse/proto';

/**
 * The e-mail a client gets when Xero or QuickBooks refused the product's connection (revoked, or the
 * refresh token lapsed): without it their figures silently stop updating (issue 16).
 */
export function reconnectEmail(o: { practiceName: string; provider: IntegrationType; url: string }) {
  const provider = PROVIDER_LABELS[o.provider];
  return {
    subject: `Please reconnect ${provider} to ${o.practiceName}`,
    text: [
      `Hello,`,
      ``,
      `${provider} no longer accepts the connection between your ${provider} organisation and ${o.practiceName},`,
      `so your accountant stops receiving your figures from it.`,
      `Sign in and connect ${provider} again here: ${o.url}`,
      ``,
      `This happens when the connection is removed in ${provider} or has not been used for a long time.`,
      `It takes a minute, and nothing you have already shared is lost.`,
    ].join('\n'),
  };
}

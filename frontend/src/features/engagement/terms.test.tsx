import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  BILLING_MESSAGES,
  BILLING_ROUTES,
  ENGAGEMENT_MESSAGES,
  ENGAGEMENT_ROUTES,
  MESSAGES,
  type Letter,
  type Me,
} from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

// Terms before payment (issue 33): the checkout sends a client who has not accepted the letter to
// /terms; signing there leads back to the checkout; the sign-in after sign-up has the e-mail filled in.
const ME: Me = {
  user: {
    user_id: '00000000-0000-4000-8000-000000000033',
    email: 'dana@example.co.uk',
    first_name: 'Dana',
    last_name: null,
    company_name: 'Dana Ltd',
    role: 'client',
    created_at: '2026-11-01T10:00:00Z',
  },
  roles: ['client'],
  staff_role: null,
  session_expires_at: '2026-12-01T10:00:00Z',
};
const LETTER: Letter = {
  id: '00000000-0000-4000-8000-0000000000a1',
  client_id: 'prospect:00000000-0000-4000-8000-000000000033',
  version: 1,
  status: 'awaiting_signature',
  reason: 'onboarding',
  package_name: 'Growth',
  monthly_fee: 100,
  is_consumer: false,
  template_version: 1,
  text_sha256: 'a'.repeat(64),
  sent_at: '2026-11-26T10:00:00Z',
  signed_at: null,
  signer_name: null,
  document_id: null,
  text: 'LETTER OF ENGAGEMENT\nGrowth: £100.00 per month.',
  client_name: 'Dana Ltd',
  signature: null,
};
const base = {
  'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
  'GET /api/identity/auth/me': () => json(200, ME),
};
const refused = () => apiError(409, 'TERMS_NOT_ACCEPTED', BILLING_MESSAGES.termsNotAccepted('Growth'));
const started = () => json(200, { url: '/checkout/test?session_id=cs_local_1', session_id: 'cs_local_1', provider: 'test' });

describe('terms before payment', () => {
  it('a checkout refused for want of the letter leads to the letter; signing it returns to the checkout', async () => {
    const { callsTo } = mockFetch({
      ...base,
      [`POST ${BILLING_ROUTES.checkout}`]: [refused, refused, started],
      [`POST ${ENGAGEMENT_ROUTES.terms}`]: () => json(200, { letter: LETTER, accepted: false }),
      [`POST ${ENGAGEMENT_ROUTES.sign(LETTER.id)}`]: () =>
        json(200, { letter: { ...LETTER, status: 'signed', signed_at: '2026-11-26T10:05:00Z' }, message: ENGAGEMENT_MESSAGES.signed }),
      'GET /api/billing/test-checkout/cs_local_1': () =>
        json(200, {
          session_id: 'cs_local_1',
          package_name: 'Growth',
          monthly_fee: 100,
          status: 'open',
          success_url: '/payment-success?session_id=cs_local_1',
          cancel_url: '/package-selection',
        }),
    });
    const { router } = renderAt('/checkout?package=Growth');
    await waitFor(() => expect(router.state.location.pathname).toBe('/terms'));
    expect(router.state.location.search).toBe('?package=Growth');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your engagement letter for the Growth package' })).toBeInTheDocument();
    expect(screen.getByLabelText('Letter text')).toHaveTextContent('LETTER OF ENGAGEMENT');
    expect(callsTo(`POST ${ENGAGEMENT_ROUTES.terms}`)[0]?.body).toEqual({ package_name: 'Growth' });

    const user = userEvent.setup();
    // Both the name and the agreement are needed before anything is sent.
    await user.click(screen.getByRole('button', { name: 'Sign and continue to payment' }));
    expect(await screen.findByText(ENGAGEMENT_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(await screen.findByText(ENGAGEMENT_MESSAGES.mustAgree)).toBeInTheDocument();
    expect(callsTo(`POST ${ENGAGEMENT_ROUTES.sign(LETTER.id)}`)).toHaveLength(0);

    await user.type(screen.getByLabelText('Type your full name to sign'), 'Dana Smith');
    await user.click(screen.getByRole('checkbox', { name: /agree to its terms on behalf of Dana Ltd/ }));
    await user.click(screen.getByRole('button', { name: 'Sign and continue to payment' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/test'), { timeout: 5000 });
    expect(callsTo(`POST ${ENGAGEMENT_ROUTES.sign(LETTER.id)}`)[0]?.body).toEqual({ full_name: 'Dana Smith', agree: true });
    // Refused once on arrival, once more while billing caught up, then started.
    expect(callsTo(`POST ${BILLING_ROUTES.checkout}`)).toHaveLength(3);
  });

  it('a letter already signed for the package is not asked for again: straight to the payment', async () => {
    const { callsTo } = mockFetch({
      ...base,
      [`POST ${BILLING_ROUTES.checkout}`]: started,
      [`POST ${ENGAGEMENT_ROUTES.terms}`]: () =>
        json(200, { letter: { ...LETTER, status: 'signed', signed_at: '2026-11-26T10:05:00Z' }, accepted: true }),
    });
    const { router } = renderAt('/terms?package=Growth');
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/test'));
    expect(screen.queryByRole('button', { name: 'Sign and continue to payment' })).not.toBeInTheDocument();
    expect(callsTo(`POST ${ENGAGEMENT_ROUTES.sign(LETTER.id)}`)).toHaveLength(0);
  });

  it('after sign-up the sign-in page has the e-mail filled in and returns to the chosen package', async () => {
    mockFetch({
      ...base,
      'POST /api/identity/auth/signup': () => json(201, { success: true, message: MESSAGES.accountCreated }),
    });
    const { router } = renderAt(`/signup?redirect=${encodeURIComponent('/checkout?package=Growth')}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Email/), 'dana@example.co.uk');
    await user.type(screen.getByLabelText(/^Password/), 'a-long-secret-1');
    await user.type(screen.getByLabelText(/^Confirm password/), 'a-long-secret-1{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(MESSAGES.accountCreated)).toBeInTheDocument();
    expect(await screen.findByLabelText('Email')).toHaveValue('dana@example.co.uk');
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/checkout?package=Growth')}`);
    // The e-mail never travels in the address.
    expect(router.state.location.search).not.toContain('dana');
  });
});

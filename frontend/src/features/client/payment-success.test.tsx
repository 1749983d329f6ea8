import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, BILLING_ROUTES, MESSAGES, type Me, type VerifyReply } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

const ME: Me = {
  user: {
    user_id: '00000000-0000-4000-8000-000000000019',
    email: 'carol@example.co.uk',
    first_name: 'Carol',
    last_name: null,
    company_name: null,
    role: 'client',
    created_at: '2026-11-01T10:00:00Z',
  },
  roles: ['client'],
  staff_role: null,
  session_expires_at: '2026-12-01T10:00:00Z',
};
const REPLY: VerifyReply = {
  success: true,
  package_name: 'Growth',
  monthly_fee: 100,
  features: ['Monthly bookkeeping'],
  subscription_status: 'active',
  subscription_end: '2026-12-22T00:00:00Z',
  provider: 'stripe',
};

function mockVerify(answer: () => Response) {
  return mockFetch({
    'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
    'GET /api/identity/auth/me': () => json(200, ME),
    [`POST ${BILLING_ROUTES.verify}`]: answer,
  });
}

describe('/payment-success', () => {
  it('a Direct Debit still being confirmed shows "Payment processing", not a failure nor a success', async () => {
    mockVerify(() =>
      json(200, { ...REPLY, success: false, payment_processing: true, subscription_status: 'pending', subscription_end: null }),
    );
    renderAt('/payment-success?session_id=cs_test_bacs');
    // The first render loads the route's lazy chunk.
    expect(await screen.findByRole('heading', { name: 'Payment processing' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText(BILLING_MESSAGES.paymentProcessing)).toBeInTheDocument();
    expect(screen.queryByText('Payment verification failed')).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.paymentSuccessful)).not.toBeInTheDocument();
    expect(screen.getByText('£100.00 per month')).toBeInTheDocument();
  });

  it('a paid checkout is welcomed', async () => {
    mockVerify(() => json(200, REPLY));
    renderAt('/payment-success?session_id=cs_test_paid');
    expect(await screen.findByRole('heading', { name: 'Payment successful! Welcome aboard.' }, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('a failed Direct Debit says so', async () => {
    mockVerify(() => apiError(409, 'CONFLICT', BILLING_MESSAGES.paymentFailed));
    renderAt('/payment-success?session_id=cs_test_failed');
    expect(await screen.findByRole('heading', { name: 'Payment verification failed' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText(BILLING_MESSAGES.paymentFailed)).toBeInTheDocument();
  });
});

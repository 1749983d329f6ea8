import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BILLING_ROUTES, type Me } from '@countinghouse/proto';
import { json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';

// VAT (issue 33): the test checkout shows net + VAT = total and charges the total; prices say '+ VAT'.
const ME: Me = {
  user: {
    user_id: '00000000-0000-4000-8000-000000000034',
    email: 'eve@example.co.uk',
    first_name: 'Eve',
    last_name: null,
    company_name: null,
    role: 'client',
    created_at: '2026-11-01T10:00:00Z',
  },
  roles: ['client'],
  staff_role: null,
  session_expires_at: '2026-12-01T10:00:00Z',
};
const SESSION = {
  session_id: 'cs_local_9',
  package_name: 'Growth',
  monthly_fee: 100,
  vat_rate: 20,
  vat: 20,
  gross: 120,
  status: 'open',
  success_url: '/payment-success?session_id=cs_local_9',
  cancel_url: '/package-selection',
};

describe('VAT at the checkout and on prices', () => {
  it('the test checkout shows £100.00 + £20.00 VAT = £120.00 and pays £120.00', async () => {
    const { callsTo } = mockFetch({
      'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
      'GET /api/identity/auth/me': () => json(200, ME),
      [`GET ${BILLING_ROUTES.testCheckout('cs_local_9')}`]: () => json(200, SESSION),
      [`POST ${BILLING_ROUTES.testCheckoutPay('cs_local_9')}`]: () => json(200, { ...SESSION, status: 'paid' }),
    });
    const { router } = renderAt('/checkout/test?session_id=cs_local_9');
    expect(await screen.findByText('£100.00 + £20.00 VAT = £120.00')).toBeInTheDocument();
    expect(screen.getByText('VAT at 20%')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: /^Pay £120\.00/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payment-success'));
    expect(callsTo(`POST ${BILLING_ROUTES.testCheckoutPay('cs_local_9')}`)).toHaveLength(1);
  });

  it("the package cards say '+ VAT' when the practice is registered, and nothing when not", async () => {
    mockFetch({
      'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
      [`GET ${BILLING_ROUTES.packages}`]: () => json(200, { packages: [], provider: 'test', vat_rate: 20 }),
    });
    renderAt('/package-selection');
    expect(await screen.findAllByText('+ VAT')).toHaveLength(7);
  });
});

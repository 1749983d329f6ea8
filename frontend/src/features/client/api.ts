import {
  ADMIN_AUTH_ROUTES,
  BILLING_ROUTES,
  CRM_ROUTES,
  IDENTITY_ROUTES,
  type InvoiceList,
  type VatRegistration,
  type VatRegistrationBody,
  type AdminSubscriptionList,
  type BillingSummary,
  type CheckoutReply,
  type Client,
  type ClientProfileBody,
  type SubscriptionCheck,
  type TestCheckoutSession,
  type VerifyReply,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/** billing (and the client's own crm record) for the client pages and /admin/billing. */
export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    startCheckout: build.mutation<CheckoutReply, { package_name: string }>({
      query: (body) => ({ url: apiPath(BILLING_ROUTES.checkout), method: 'POST', body }),
      extraOptions: { auth: 'user' },
    }),
    testCheckout: build.query<TestCheckoutSession, string>({
      query: (id) => apiPath(BILLING_ROUTES.testCheckout(id)),
      extraOptions: { auth: 'user' },
    }),
    payTestCheckout: build.mutation<TestCheckoutSession, string>({
      query: (id) => ({ url: apiPath(BILLING_ROUTES.testCheckoutPay(id)), method: 'POST' }),
      extraOptions: { auth: 'user' },
    }),
    verifyPayment: build.mutation<VerifyReply, { session_id: string }>({
      query: (body) => ({ url: apiPath(BILLING_ROUTES.verify), method: 'POST', body }),
      extraOptions: { auth: 'user' },
      invalidatesTags: ['Billing', 'Client'],
    }),
    subscription: build.query<SubscriptionCheck, void>({
      query: () => apiPath(BILLING_ROUTES.subscription),
      extraOptions: { auth: 'user' },
      providesTags: ['Billing'],
    }),
    changePackage: build.mutation<SubscriptionCheck, { package_name: string }>({
      query: (body) => ({ url: apiPath(BILLING_ROUTES.changePackage), method: 'POST', body }),
      extraOptions: { auth: 'user' },
      invalidatesTags: ['Billing', 'Client', 'Upgrade'],
    }),
    myClient: build.query<Client, void>({
      query: () => apiPath(CRM_ROUTES.myClient),
      extraOptions: { auth: 'user' },
      providesTags: ['Client'],
    }),
    /** The client's own business profile (crm); the reply is the updated record. */
    updateMyProfile: build.mutation<Client, ClientProfileBody>({
      query: (body) => ({ url: apiPath(CRM_ROUTES.myClient), method: 'PATCH', body }),
      extraOptions: { auth: 'user' },
      invalidatesTags: ['Client'],
    }),
    adminSubscriptions: build.query<AdminSubscriptionList, { page: number; page_size: number }>({
      query: (params) => ({ url: apiPath(BILLING_ROUTES.adminSubscriptions), params }),
      providesTags: ['Billing'],
    }),
    adminBillingSummary: build.query<BillingSummary, void>({
      query: () => apiPath(BILLING_ROUTES.adminSummary),
      providesTags: ['Billing'],
    }),
    /** Issue 33: the signed-in client's VAT invoices. */
    myInvoices: build.query<InvoiceList, void>({
      query: () => apiPath(BILLING_ROUTES.invoices),
      providesTags: ['Billing'],
    }),
    adminInvoices: build.query<InvoiceList, void>({
      query: () => ({ url: apiPath(BILLING_ROUTES.adminInvoices), auth: 'admin' }),
      providesTags: ['Billing'],
    }),
    vatRegistration: build.query<VatRegistration, void>({
      query: () => ({ url: apiPath(BILLING_ROUTES.vat), auth: 'admin' }),
      providesTags: ['Billing'],
    }),
    saveVatRegistration: build.mutation<VatRegistration, VatRegistrationBody>({
      query: (body) => ({ url: apiPath(BILLING_ROUTES.vat), method: 'PUT', body, auth: 'admin' }),
      invalidatesTags: ['Billing'],
    }),
  }),
});

export const {
  useStartCheckoutMutation,
  useTestCheckoutQuery,
  usePayTestCheckoutMutation,
  useVerifyPaymentMutation,
  useSubscriptionQuery,
  useChangePackageMutation,
  useMyClientQuery,
  useUpdateMyProfileMutation,
  useAdminSubscriptionsQuery,
  useAdminBillingSummaryQuery,
  useMyInvoicesQuery,
  useAdminInvoicesQuery,
  useVatRegistrationQuery,
  useSaveVatRegistrationMutation,
} = billingApi;

/** Hand an invoice's PDF to the browser (refreshing an expired session once). */
export async function downloadInvoice(id: string, number: string, realm: 'admin' | 'user'): Promise<void> {
  const url = BILLING_ROUTES.invoicePdf(id);
  let res = await fetch(url, { credentials: 'include' });
  if (res.status === 401) {
    const refreshed = await fetch(realm === 'admin' ? ADMIN_AUTH_ROUTES.refresh : IDENTITY_ROUTES.refresh, {
      method: 'POST',
      credentials: 'include',
    }).catch(() => null);
    if (refreshed?.ok) res = await fetch(url, { credentials: 'include' });
  }
  if (!res.ok) throw new Error((await res.json().catch(() => null))?.error?.message ?? 'The invoice could not be downloaded.');
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = `${number}.pdf`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** The package chosen before signing up, so the journey can continue if a page drops ?redirect. */
const PENDING_KEY = 'countinghouse.pendingPackage';
export const pendingPackage = {
  get: (): string | null => {
    try {
      return sessionStorage.getItem(PENDING_KEY);
    } catch {
      return null;
    }
  },
  set: (name: string) => {
    try {
      sessionStorage.setItem(PENDING_KEY, name);
    } catch {
      // private mode: the redirect still carries it
    }
  },
  clear: () => {
    try {
      sessionStorage.removeItem(PENDING_KEY);
    } catch {
      // nothing to clear
    }
  },
};

import type { PackageList, PublicConfig } from '@countinghouse/proto';
import { api } from '../../app/api';

export type { PublicConfig };

/**
 * An open tab asks again every minute and when the window regains focus, so it learns of the
 * maintenance switch and changed contact details without a reload.
 */
const PUBLIC_CONFIG_REFRESH_MS = 60_000;

export const publicApi = api.injectEndpoints({
  endpoints: (build) => ({
    publicConfig: build.query<PublicConfig, void>({
      query: () => '/public/config',
      extraOptions: { auth: 'none' },
      providesTags: ['PublicConfig'],
      // Kept for the whole visit (pages share it); refreshed by the hook's polling and on focus.
      keepUnusedDataFor: 3600,
    }),
    /** The catalogue with the VAT rate on its prices (issue 33: '+ VAT' when the practice is registered). */
    packageList: build.query<PackageList, void>({
      // (BILLING_ROUTES.packages without /api; billing.ts carries schemas: see PackageCards' PLUS_VAT)
      query: () => '/billing/packages',
      extraOptions: { auth: 'none' },
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { usePublicConfigQuery, usePackageListQuery } = publicApi;

/** The VAT rate on the practice's prices, percent (0 while unknown or not registered). */
export function useVatRate(): number {
  return usePackageListQuery().data?.vat_rate ?? 0;
}

/** The config, or safe defaults while it loads or when the gateway cannot answer (never maintenance). */
export function usePublicConfig() {
  const { data, isLoading } = usePublicConfigQuery(undefined, {
    pollingInterval: PUBLIC_CONFIG_REFRESH_MS,
    skipPollingIfUnfocused: true,
    refetchOnFocus: true,
  });
  return {
    isLoading,
    maintenance: data?.maintenance === true,
    demoMode: data?.demoMode === true,
    practice: data?.practice ?? null,
  };
}

import { api } from '../../app/api';

/**
 * GET /api/public/config, served by the gateway. Not yet in proto; it should move there
 * (PublicConfigSchema) when the gateway implements it.
 */
export interface PublicConfig {
  demoMode: boolean;
  maintenance: boolean;
  practice: { name: string; phone: string; email: string };
}

export const publicApi = api.injectEndpoints({
  endpoints: (build) => ({
    publicConfig: build.query<PublicConfig, void>({
      query: () => '/public/config',
      extraOptions: { auth: 'none' },
      providesTags: ['PublicConfig'],
      // It changes only when an operator flips maintenance; keep it for the whole visit.
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { usePublicConfigQuery } = publicApi;

/** The config, or safe defaults while it loads or when the gateway cannot answer (never maintenance). */
export function usePublicConfig() {
  const { data, isLoading } = usePublicConfigQuery();
  return {
    isLoading,
    maintenance: data?.maintenance === true,
    demoMode: data?.demoMode === true,
    practice: data?.practice ?? null,
  };
}

import {
  BILLING_REPORT_ROUTES,
  CRM_REPORT_ROUTES,
  DOCUMENTS_REPORT_ROUTES,
  type ClientsReport,
  type FailedPaymentsReport,
  type LeadsReport,
  type MrrReport,
  type ReportRangeQuery,
  type UploadsReport,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/**
 * The reports, each from the service that owns the data (docs/decisions.md): the page composes them.
 * Admin session; always refetched when the page opens or the range changes.
 */
export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    mrrReport: build.query<MrrReport, ReportRangeQuery>({
      query: (params) => ({ url: apiPath(BILLING_REPORT_ROUTES.mrr), params }),
      providesTags: ['Billing'],
    }),
    failedPaymentsReport: build.query<FailedPaymentsReport, ReportRangeQuery>({
      query: (params) => ({ url: apiPath(BILLING_REPORT_ROUTES.failedPayments), params }),
      providesTags: ['Billing'],
    }),
    clientsReport: build.query<ClientsReport, ReportRangeQuery>({
      query: (params) => ({ url: apiPath(CRM_REPORT_ROUTES.clients), params }),
      providesTags: ['Client'],
    }),
    leadsReport: build.query<LeadsReport, ReportRangeQuery>({
      query: (params) => ({ url: apiPath(CRM_REPORT_ROUTES.leads), params }),
      providesTags: ['Lead'],
    }),
    uploadsReport: build.query<UploadsReport, ReportRangeQuery>({
      query: (params) => ({ url: apiPath(DOCUMENTS_REPORT_ROUTES.uploads), params }),
      providesTags: ['Document'],
    }),
  }),
});

export const { useMrrReportQuery, useFailedPaymentsReportQuery, useClientsReportQuery, useLeadsReportQuery, useUploadsReportQuery } =
  reportsApi;

import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import { InvoiceListSchema, rolesFor, VatRegistrationBodySchema, VatRegistrationSchema } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { BillingDeps } from '../use-cases/deps.js';
import { allInvoices, currentVat, invoicePdf, myInvoices, saveVat, toRegistration } from '../use-cases/vat.js';
import { errors } from './shared.js';

const person = requireRole([], { kind: 'user' });
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Issue 33: the practice's VAT registration, and the VAT invoices of every payment. */
export function vatRoutes(app: App, d: BillingDeps) {
  const billingStaff = rolesFor('billing.manage');

  app.get(
    '/vat',
    {
      preHandler: requireRole(rolesFor('billing.vat')),
      schema: {
        tags: ['billing'],
        summary: "The practice's VAT registration (the rate on prices is public: GET /packages)",
        response: { 200: VatRegistrationSchema, ...errors },
      },
    },
    async () => toRegistration(await currentVat(d.db)),
  );

  app.put(
    '/vat',
    {
      preHandler: requireRole(rolesFor('billing.vat')),
      schema: {
        tags: ['billing'],
        summary: 'Record the VAT registration: number (empty: not registered), rate, the address on invoices',
        body: VatRegistrationBodySchema,
        response: { 200: VatRegistrationSchema, ...errors },
      },
    },
    async (request) => saveVat(d, requireAuth(request), request.body),
  );

  app.get(
    '/invoices',
    {
      preHandler: person,
      schema: {
        tags: ['billing'],
        summary: "The signed-in client's VAT invoices, newest first",
        response: { 200: InvoiceListSchema, ...errors },
      },
    },
    async (request) => ({ invoices: await myInvoices(d, requireAuth(request).id) }),
  );

  app.get(
    '/admin/invoices',
    {
      preHandler: requireRole(billingStaff),
      schema: {
        tags: ['billing'],
        summary: 'Every VAT invoice and credit note, newest first',
        response: { 200: InvoiceListSchema, ...errors },
      },
    },
    async () => ({ invoices: await allInvoices(d) }),
  );

  app.get(
    '/invoices/:id/pdf',
    {
      preHandler: requireRole([...rolesFor('engagement.sign'), ...billingStaff]),
      schema: {
        tags: ['billing'],
        summary: "An invoice's PDF: its client, or the practice's billing staff",
        params: IdParams,
        response: { 401: errors[401], 403: errors[403], 404: errors[404] },
      },
    },
    async (request, reply) => {
      const p = requireAuth(request);
      const staff = p.kind === 'admin' || p.roles.some((r) => billingStaff.includes(r));
      const { pdf, number } = await invoicePdf(d, p, request.params.id, staff);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  );
}

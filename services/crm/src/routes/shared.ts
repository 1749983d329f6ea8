import { AppError, pgErrorCode, type Db, type OutboxRelay, type Principal } from '@countinghouse/kit';
import type { Actor } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { scopeOf, type CrmScope } from '../domain/access.js';

export const ErrorRef = Type.Ref('ErrorBody');
export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const errors = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef };

export interface RouteDeps {
  db: Db;
  relay: OutboxRelay;
}

export function actorOf(p: Principal): Actor {
  return { kind: p.kind, id: p.id };
}

export function scope(request: FastifyRequest): CrmScope {
  return scopeOf(request.principal);
}

/** Unique and foreign-key violations that reach the database are the caller's mistake, not ours. */
export function mapDbError(err: unknown, messages: { unique?: string; foreignKey?: string }): never {
  const code = pgErrorCode(err);
  if (code === '23505' && messages.unique) throw new AppError('CONFLICT', messages.unique);
  if (code === '23503' && messages.foreignKey) throw new AppError('VALIDATION_FAILED', messages.foreignKey);
  throw err;
}

export function pageOf(q: { page: number; page_size: number }) {
  return { limit: q.page_size, offset: (q.page - 1) * q.page_size };
}

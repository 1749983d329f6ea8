import { EDGE_MESSAGES, ERROR_STATUS, isTextRulePattern, MESSAGES, type ErrorCode } from '@countinghouse/proto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { replyMethodNotAllowed } from './method-not-allowed.js';

/** The one error type: domain code throws a code and a user-facing message; one handler maps it to HTTP. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: { path: string; message: string }[];
  constructor(code: ErrorCode, message: string, details?: { path: string; message: string }[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/**
 * The message of a thrown value, as text: an Error's message; anything else's own `message` when it has
 * one, else the value itself as a string (`String((err as Error)?.message ?? err)` without the cast).
 */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  const message = propertyOf(err, 'message');
  return String(message ?? err);
}

/** A property of a thrown value that may be anything (undefined when it is not an object). */
function propertyOf(v: unknown, key: string): unknown {
  return typeof v === 'object' && v !== null ? Reflect.get(v, key) : undefined;
}

/** The property a `required` validation error names (ajv's params.missingProperty), if any. */
function missingPropertyOf(params: unknown): string | undefined {
  const p = propertyOf(params, 'missingProperty');
  return typeof p === 'string' ? p : undefined;
}

/** Postgres error code, whether the driver error arrives directly or wrapped in a Drizzle error. */
export function pgErrorCode(err: unknown): string | undefined {
  const code = propertyOf(propertyOf(err, 'cause'), 'code') ?? propertyOf(err, 'code');
  return typeof code === 'string' ? code : undefined;
}

export function sendError(reply: FastifyReply, status: number, code: string, message: string, extra?: object) {
  return reply.status(status).send({ error: { code, message, ...extra } });
}

export function installErrorHandler(app: FastifyInstance) {
  // (Fastify's own error type: an AppError is one too, and the other errors reaching here are Fastify's)
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      // (a provider the practice has not configured is a known state, not a fault: a line at info)
      if (err.status >= 500) request.log[err.code === 'NOT_CONFIGURED' ? 'info' : 'error']({ err }, err.message);
      return sendError(reply, err.status, err.code, err.message, err.details ? { details: err.details } : undefined);
    }
    if (err.validation) {
      const details = err.validation.map((v) => ({
        path: (v.instancePath || missingPropertyOf(v.params) || '').replace(/^\//, '').replace(/\//g, '.'),
        message:
          v.keyword === 'pattern' && isTextRulePattern(v.params?.pattern) ? EDGE_MESSAGES.controlCharacters : (v.message ?? 'is not valid'),
      }));
      return sendError(reply, 400, 'VALIDATION_FAILED', MESSAGES.validationFailed, { details });
    }
    if (isMalformedMultipart(err)) return sendError(reply, 400, 'BAD_REQUEST', EDGE_MESSAGES.malformedMultipart);
    const status = err.statusCode ?? 500;
    if (status === 429) return sendError(reply, 429, 'RATE_LIMITED', MESSAGES.tooManyRequests);
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type): their text is safe.
      return sendError(reply, status, err.code ?? 'BAD_REQUEST', err.message);
    }
    // 5xx never leaks internals: the person gets an error id to quote, the log gets the detail.
    const errorId = randomUUID();
    request.log.error({ err, errorId }, 'unhandled error');
    return sendError(reply, 500, 'INTERNAL', MESSAGES.internalError, { errorId });
  });
}

// The multipart parser's (busboy's) own errors carry no status: a body cut short or without its
// boundary is the sender's mistake, not ours.
const MULTIPART_FAILURES = [
  /^Multipart: Boundary not found/,
  /unexpected end of multipart data/i,
  /^Malformed part header/,
  /^Unexpected end of (form|file)/,
];

export function isMalformedMultipart(err: { statusCode?: number; message?: string; code?: string }): boolean {
  if (err.code === 'FST_MP_PREMATURE_CLOSE') return true;
  if (err.statusCode !== undefined || typeof err.message !== 'string') return false;
  return MULTIPART_FAILURES.some((r) => r.test(err.message!));
}

export function installNotFoundHandler(app: FastifyInstance) {
  app.setNotFoundHandler((request, reply) => {
    if (replyMethodNotAllowed(request, reply)) return reply;
    return sendError(reply, 404, 'NOT_FOUND', MESSAGES.notFound);
  });
}

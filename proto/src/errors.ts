import { Type, type Static } from '@sinclair/typebox';

/** Error codes and their HTTP status: the one map every service and the gateway use. */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  SESSION_EXPIRED: 401,
  FORBIDDEN: 403,
  /** A staff member the practice requires two-factor sign-in of, who has not set it up yet (issue 32). */
  TWO_FACTOR_ENROLMENT_REQUIRED: 403,
  CROSS_SITE_REQUEST: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** Checkout refused: the engagement letter for the package is not accepted yet (issue 33). */
  TERMS_NOT_ACCEPTED: 409,
  GONE: 410,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_FILE_TYPE: 415,
  RATE_LIMITED: 429,
  NOT_CONFIGURED: 503,
  UPSTREAM_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      errorId: Type.Optional(Type.String()),
      details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    }),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

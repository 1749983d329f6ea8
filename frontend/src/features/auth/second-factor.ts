/**
 * Whether a refused sign-in asks for the second factor (a 401 whose details name totp_code): people's
 * login and the admin login alike (issue 32). Its own module so the admin login does not load people's form.
 */
export function asksForSecondFactor(error: unknown): boolean {
  const data = (error as { status?: unknown; data?: { error?: { details?: { path?: string }[] } } } | null) ?? null;
  return data?.status === 401 && Boolean(data.data?.error?.details?.some((d) => d.path === 'totp_code'));
}

export const BILLING_EVENTS = {} as const;

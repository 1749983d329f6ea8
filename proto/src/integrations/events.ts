export const INTEGRATIONS_EVENTS = {} as const;

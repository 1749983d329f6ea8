export const MEDIA_EVENTS = {} as const;

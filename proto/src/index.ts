export * from './constants.js';
export * from './messages.js';
export * from './errors.js';
export * from './events.js';
export * from './jobs.js';
export * from './format.js';
export * from './identity/admin-auth.js';
export * from './routes.js';

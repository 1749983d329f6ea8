// first: a Node.js older than 24 LTS stops with a sentence before anything else loads
import './node-version.js';
export * from './app.js';
export * from './auth.js';
export * from './bus.js';
export * from './consumers.js';
export * from './config.js';
export * from './db.js';
export * from './errors.js';
export * from './jobs.js';
export * from './outbox.js';
export * from './outbox-tables.js';
export * from './runtime.js';
export * from './service-main.js';
export * from './report-range.js';
export * from './live-settings.js';
export * from './request-target.js';
export * from './wait-dependencies.js';
export { MIN_NODE, nodeVersionProblem } from './node-version.js';

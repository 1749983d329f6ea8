export * from './api';
export { MessageThread } from './MessageThread';
export { RequestedFromYou } from './RequestedFromYou';
export { RequestsWorkspace } from './RequestsWorkspace';

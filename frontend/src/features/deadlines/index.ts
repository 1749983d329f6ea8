// The deadlines area's public pieces, for the crm client record, the staff portal and the client dashboard.
export { ClientDeadlinesDialog, type DeadlinesTarget } from './ClientDeadlinesDialog';
export { DeadlinesWorkspace } from './DeadlinesWorkspace';
export { CalendarFeedCard } from './CalendarFeedCard';
export { MyDeadlinesCard } from './MyDeadlinesCard';

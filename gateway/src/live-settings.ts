// The follower of the practice settings moved to the kit (identity and media use it too in distributed mode).
export { LiveSettings, type PracticeDetails } from '@countinghouse/kit';

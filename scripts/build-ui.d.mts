/** Build the UI when it is missing or older than its sources (exits on a failed build). */
export function buildUiIfStale(root: string): void;

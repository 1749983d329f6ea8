/** The oldest Node.js supported: package.json's `engines`. */
export const MIN_NODE: string;
/** Why this Node.js cannot run Countinghouse (null when it can). */
export function nodeVersionProblem(version?: string, execPath?: string): string | null;

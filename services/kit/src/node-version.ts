// Every process of the product (the all-in-one server, the gateway, each service) imports the kit first:
// a process started directly with a Node.js older than 24 LTS (the project's own runtime, the `node`
// devDependency that npm scripts put first on PATH) stops here with a sentence, before anything else
// loads. Kept in step with scripts/node-version.mjs (the launchers' copy, plain JavaScript) and
// package.json's `engines` by services/kit/test/node-version.test.ts.

/** The oldest Node.js supported: package.json's `engines`. */
export const MIN_NODE = '24.11.0';

/** Why this Node.js cannot run Countinghouse (null when it can). */
export function nodeVersionProblem(version: string = process.versions.node, execPath: string = process.execPath): string | null {
  const bare = version.replace(/^v/, '');
  const have = bare.split('.').map(Number);
  const need = MIN_NODE.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    const h = have[i] ?? 0;
    const n = need[i]!;
    if (h > n) return null;
    if (h < n) {
      return (
        `Countinghouse needs Node.js ${MIN_NODE} or later (24 LTS); this is Node.js v${bare} (${execPath}).\n` +
        'Run it through npm (npm start, npm run start:distributed, npm test): `npm install` brings Node.js 24 into\n' +
        'node_modules/.bin and every npm script uses it. To run one file directly: npx node <file> (or node_modules/.bin/node <file>).\n'
      );
    }
  }
  return null;
}

const problem = nodeVersionProblem();
if (problem) {
  process.stderr.write(problem);
  process.exit(1);
}

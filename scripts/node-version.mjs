// Countinghouse runs on Node.js 24 LTS, which the project brings itself: `npm install` puts the pinned
// `node` devDependency in node_modules/.bin, first on the PATH of every npm script (docs/decisions.md,
// "Node.js 24 LTS"). Imported first by the launchers and the bench, so a file run directly with an older
// Node (e.g. the machine's /usr/bin/node 20) stops with a sentence instead of failing somewhere deeper.
// (The same check runs in every process through @countinghouse/kit: services/kit/src/node-version.ts.)

import { pathToFileURL } from 'node:url';

/** The oldest Node.js supported: package.json's `engines`. */
export const MIN_NODE = '24.11.0';

/** Why this Node.js cannot run Countinghouse (null when it can). */
export function nodeVersionProblem(version = process.versions.node, execPath = process.execPath) {
  const have = version.replace(/^v/, '').split('.').map(Number);
  const need = MIN_NODE.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    if ((have[i] ?? 0) > need[i]) return null;
    if ((have[i] ?? 0) < need[i]) {
      return (
        `Countinghouse needs Node.js ${MIN_NODE} or later (24 LTS); this is Node.js v${version.replace(/^v/, '')} (${execPath}).\n` +
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
// run as a command (.ci/run: `npm exec -- node scripts/node-version.mjs`): say which Node.js that is
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`Node.js ${process.version} (${process.execPath}): supported (${MIN_NODE} or later)\n`);
}

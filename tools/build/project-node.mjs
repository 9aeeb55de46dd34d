// npm ci brings the project's Node (docs/decisions/0001-runtime.md) by the `node` package's install
// script. With install scripts off (ignore-scripts), npm runs our scripts on the machine's Node, and
// the service then fails on the first API that Node lacks, with an error that does not say why.
import semver from 'semver';

/** Why Node `version` cannot build and run the project (package.json's engines), naming the fix; undefined when it can. */
export function projectNodeRefusal(version, { engines, devDependencies }) {
  if (semver.satisfies(version, engines.node)) return undefined;
  return (
    `Node ${version} runs this, and the project needs ${engines.node}. npm ci brings Node ${devDependencies.node} ` +
    "into node_modules/.bin by the node package's install script: were install scripts off (ignore-scripts)? " +
    'Run: npm ci --ignore-scripts=false'
  );
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectNodeRefusal } from './project-node.mjs';

interface PackageJson {
  readonly engines: { readonly node: string };
  readonly devDependencies: { readonly node: string };
}

const packageJson = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as PackageJson;

describe("the project's Node, checked before the build", () => {
  it('takes the Node that runs this test', () => {
    expect(projectNodeRefusal(process.versions.node, packageJson)).toBeUndefined();
  });

  it("refuses the machine's Node 20, naming npm ci with its install scripts as the fix", () => {
    const refusal = projectNodeRefusal('20.20.2', packageJson);
    expect(refusal).toContain('Node 20.20.2');
    expect(refusal).toContain(`Node ${packageJson.devDependencies.node}`);
    expect(refusal).toContain('npm ci --ignore-scripts=false');
  });
});

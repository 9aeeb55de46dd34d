import { build } from 'esbuild';
import { runInNewContext } from 'node:vm';
import { BUNDLE_OUTPUT, ESBUILD_NAME_HELPER, withNamesSetOnlyWhenRenamed } from './keep-names-helper.mjs';

// Two modules that both declare `f` and `C`: the bundle renames one of each (f2, C2), and keepNames gives
// them their names back. An arrow reaches __name as an argument, nameless; `inner`, made per call, has the right name.
const FILES: Record<string, string> = {
  'a.js': 'export function f() {} export class C {} export const makeClosure = () => function inner() {};',
  'b.js': 'export function f() {} export class C {}',
  'main.js': 'export { f as a, C as A, makeClosure } from "./a.js"; export { f as b, C as B } from "./b.js";',
};

/** The sample bundled as build.mjs bundles the service (BUNDLE_OUTPUT). */
async function bundle(): Promise<string> {
  const [output] = (
    await build({
      ...BUNDLE_OUTPUT,
      entryPoints: ['main.js'],
      bundle: true,
      write: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'files',
          setup(build) {
            build.onResolve({ filter: /.*/ }, ({ path }) => ({ path: path.replace(/^\.\//, ''), namespace: 'files' }));
            build.onLoad({ filter: /.*/, namespace: 'files' }, ({ path }) => ({ contents: FILES[path], loader: 'js' }));
          },
        },
      ],
    })
  ).outputFiles;
  return output.text;
}

describe("esbuild's keepNames helper", () => {
  it('is still written as withNamesSetOnlyWhenRenamed expects (an esbuild upgrade that changes it fails here)', async () => {
    expect(await bundle()).toContain(ESBUILD_NAME_HELPER);
  });

  it('is replaced by one that names renamed classes and functions and leaves the rest alone', async () => {
    const module = { exports: {} as Record<string, () => () => void> };
    const named: unknown[] = [];
    const defineProperty = (target: object, key: PropertyKey, descriptor: PropertyDescriptor) => {
      if (key === 'name') named.push(descriptor.value);
      return Object.defineProperty(target, key, descriptor);
    };
    runInNewContext(withNamesSetOnlyWhenRenamed(await bundle()), {
      module,
      Object: Object.create(Object, { defineProperty: { value: defineProperty } }),
    });
    const { a, b, A, B, makeClosure } = module.exports;
    expect([a.name, b.name, A.name, B.name, makeClosure().name]).toEqual(['f', 'f', 'C', 'C', 'inner']);
    expect(makeClosure.name).toBe('');
    expect(named.sort()).toEqual(['C', 'f']);
  });
});

// esbuild's keepNames helper, replaced in the bundle by one that gives back the names esbuild renamed
// and leaves every other function alone (docs/decisions/0004-kept-libraries.md has its figure). The
// spec fails if esbuild writes its helper otherwise.

/**
 * How the service is bundled (build.mjs), which shapes the helper's text: the spec bundles its sample with these too.
 * @type {import('esbuild').BuildOptions}
 */
export const BUNDLE_OUTPUT = {
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Every character outside ASCII written as an escape, and no comments (some packages' hold "≥" or
  // "—"): an ASCII source, which V8 holds in one byte per character instead of two.
  charset: 'ascii',
  minifyWhitespace: true,
  // Class names as written (as swc's keepClassNames): Nest's logs and errors name classes.
  keepNames: true,
};

/** The helper as esbuild writes it (minifyWhitespace): each `__name(f, "f")` is a defineProperty, also on closures made per call. */
export const ESBUILD_NAME_HELPER = 'var __name=(target,value)=>__defProp(target,"name",{value,configurable:true});';
// A class or a declared function has a name here, right or renamed (f2). A nameless one is an arrow or
// function expression, often made per call, handed over as an argument: it stays nameless.
const NAME_HELPER =
  'var __name=(target,value)=>target.name===value||target.name===""?target:__defProp(target,"name",{value,configurable:true});';

/** `source` (esbuild's output) with its keepNames helper replaced; throws if esbuild's is not there as expected. */
export function withNamesSetOnlyWhenRenamed(source) {
  if (!source.includes(ESBUILD_NAME_HELPER))
    throw new Error(`bundleService: esbuild's keepNames helper is no longer ${ESBUILD_NAME_HELPER}`);
  return source.replace(ESBUILD_NAME_HELPER, NAME_HELPER);
}

// The bundle's source kept within Latin-1, which V8 holds in one byte per character instead of two:
// heap in docs/performance.md, "Micro-optimisations". The spec fails if V8 or esbuild change what this relies on.

const OUTSIDE_LATIN1 = /[^\x00-\xff]/;
const WITHOUT_COMMENTS = { minifyWhitespace: true, legalComments: 'none', charset: 'ascii', loader: 'js' };

/**
 * esbuild's output (charset 'ascii') with every character outside Latin-1 made "?". esbuild escapes
 * them in the code, but keeps some of the packages' comments as written, and those made V8 hold the
 * whole bundle as two-byte text. It also keeps them in regular expressions and tagged templates,
 * where they count: if the code without its comments still has one, the source is left as it was,
 * and the build says so.
 */
export async function latin1Source(esbuild, source) {
  if (!OUTSIDE_LATIN1.test(source)) return source;
  const { code } = await esbuild.transform(source, WITHOUT_COMMENTS);
  if (!OUTSIDE_LATIN1.test(code)) return source.replace(new RegExp(OUTSIDE_LATIN1, 'g'), '?');
  console.warn('npm run build: characters outside Latin-1 in the code, not only in comments: V8 will hold the bundle as two-byte text');
  return source;
}

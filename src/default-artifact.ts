/**
 * Where the installed package keeps its artifact: `data/cpmx.msgpack` beside `dist/`.
 *
 * Written as a literal URL relative to this module so that file tracers (@vercel/nft, and so
 * Next.js and Vercel) and bundlers that copy assets (webpack, Vite) see the file this code
 * reads. It holds in every ES module that runs it: this file sits in `src/`, and every ES
 * bundle of cpmx sits directly in `dist/` (scripts/bundle.mjs). The CommonJS bundle gets its
 * own version of this module, written with `__dirname`, and the web bundle one that reads no
 * file at all.
 *
 * Called at first use, never at import: in a CommonJS bundle an app's bundler makes of this ES
 * module, `import.meta.url` is empty and the URL cannot be made. Then there is no package
 * folder to find the file in, and `undefined` says so (src/paths.ts turns it into advice).
 */
import { nodeUrl } from './node-builtins.js';

export function packageArtifactPath(): string | undefined {
  try {
    return nodeUrl().fileURLToPath(new URL('../data/cpmx.msgpack', import.meta.url));
  } catch {
    return undefined;
  }
}

/**
 * dist/cpmx-deferred.cjs (src/client/deferred.ts), required beside this bundle at its first need,
 * never at import. Written as a literal URL relative to this module, as default-artifact.ts is,
 * so that file tracers (@vercel/nft) find the file; every ES bundle sits directly in dist/ beside
 * it. The CommonJS bundles get a version with `require('./cpmx-deferred.cjs')` (scripts/bundle.mjs).
 * App bundlers, which can follow neither, get the library in one file (package.json's `module`).
 */
import { nodeUrl, requireFile } from './client/node-builtins.js';

type Deferred = typeof import('./client/deferred.js');

let loaded: Deferred | undefined;

export function deferred(): Deferred {
  return (loaded ??= requireFile(nodeUrl().fileURLToPath(new URL('./cpmx-deferred.cjs', import.meta.url))) as Deferred);
}

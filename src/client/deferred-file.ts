/**
 * dist/cpmx-deferred.cjs (src/client/deferred.ts), required beside this bundle at its first need,
 * never at import. Written as a literal URL relative to the module, as default-artifact.ts is,
 * so that file tracers (@vercel/nft) find the file: only the library's ES bundle, which sits
 * directly in dist/ beside it, uses this module (through the stand-ins client-methods.lazy.ts
 * and catalog-parts.lazy.ts). The CommonJS bundle gets a version with
 * `require('./cpmx-deferred.cjs')` (scripts/bundle.mjs). App bundlers, which can follow neither,
 * get the library in one file (package.json's `module`).
 */
import { nodeUrl, requireFile } from '../node-builtins.js';

type Deferred = typeof import('./deferred.js');

let loaded: Deferred | undefined;

export function deferred(): Deferred {
  return (loaded ??= requireFile(nodeUrl().fileURLToPath(new URL('./cpmx-deferred.cjs', import.meta.url))) as Deferred);
}

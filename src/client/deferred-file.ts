/**
 * dist/cpmx-deferred.cjs (src/client/deferred.ts), required beside the library's CommonJS bundle
 * (dist/cpmx.cjs, which the ES module entry for Node runs too: src/node-entry.ts) at its first
 * need, never at import, through the stand-ins client-methods.lazy.ts and catalog-parts.lazy.ts.
 * A literal require, which file tracers (@vercel/nft) follow; scripts/bundle.mjs leaves it to
 * the file beside the bundle. App bundlers, which can follow no require made at first need, get
 * the library in one file (package.json's `module`).
 */
type Deferred = typeof import('./deferred.js');

let loaded: Deferred | undefined;

export function deferred(): Deferred {
  return (loaded ??= require('./cpmx-deferred.cjs') as Deferred);
}

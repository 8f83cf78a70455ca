/**
 * Where the installed package keeps its artifact: `data/cpmx.msgpack` beside `dist/`.
 *
 * Written as a literal URL relative to this module so that file tracers (@vercel/nft, and so
 * Next.js and Vercel) and bundlers that copy assets (webpack, Vite) see the file this code
 * reads. It holds in every ES module that runs it: this file sits in `src/`, and every ES
 * bundle of cpmx sits directly in `dist/` (scripts/bundle.mjs). The CommonJS bundle gets its
 * own version of this module, written with `__dirname`, and the web bundle one that reads no
 * file at all.
 */
import { fileURLToPath } from 'node:url';

export function packageArtifactPath(): string {
  return fileURLToPath(new URL('../data/cpmx.msgpack', import.meta.url));
}

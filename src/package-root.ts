/**
 * The directory holding cpmx's package.json, for the command line's compiler and the
 * benchmark: where `cpmx build` looks for a catalog and writes the artifact. Found by walking
 * up from this module, so it holds from `src/` (tsx, vitest), `dist/src/` (tsc's output, which
 * the benchmark runs) and `dist/` (the CLI's bundle). The library never needs it: inside an
 * app's bundle the nearest package.json is the app's.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Where the package lives, so defaults work the same from `src/` (tsx) and `dist/src/` (node). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

/** The directory holding cpmx's own package.json. */
export const packageRoot = findPackageRoot(import.meta.dirname);

/** Where `cpmx build` writes the artifact and the runtime looks for it by default. */
export const defaultArtifactPath = join(packageRoot, 'data', 'cpmx.msgpack');
